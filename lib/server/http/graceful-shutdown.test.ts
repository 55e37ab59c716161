// drainServer on a real node:http server, with raw sockets so the test sees exactly when the
// server closes a connection and what headers it sends.
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { openRawConnection, type TRawConnection } from "@/test/raw-connection";
import { drainServer, trackResponses } from "./graceful-shutdown.mjs";

let server: Server;
let port = 0;
/** Responses the /slow handler holds until the test releases them. */
const held: ServerResponse[] = [];

async function start(): Promise<void> {
  server = createServer((req, res) => {
    if (req.url === "/slow") {
      held.push(res);
      return;
    }
    res.setHeader("Content-Type", "text/plain");
    res.end("ok");
  });
  trackResponses(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
}

afterEach(async () => {
  held.length = 0;
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

function send(connection: TRawConnection, path: string): void {
  connection.socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n`);
}

async function until(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((r) => setTimeout(r, 5));
}

describe("drainServer", () => {
  it("closes idle keep-alive connections at once, lets the request in flight finish with Connection: close", async () => {
    await start();
    const idle = await openRawConnection(port);
    send(idle, "/fast");
    await until(() => idle.received().endsWith("ok"));
    expect(idle.received()).toMatch(/Connection: keep-alive/i);

    const busy = await openRawConnection(port);
    send(busy, "/slow");
    await until(() => held.length === 1);

    let idleClosedFirst = false;
    const drained = drainServer(server, { graceMs: 60_000 });
    // The idle connection is closed while the slow request is still held.
    await idle.closed;
    idleClosedFirst = held[0]!.writableEnded === false;
    expect(idleClosedFirst).toBe(true);

    held[0]!.end("slow done");
    await busy.closed;
    expect(busy.received()).toMatch(/^HTTP\/1\.1 200/);
    expect(busy.received()).toMatch(/Connection: close/i);
    expect(busy.received()).toMatch(/slow done$/);
    await expect(drained).resolves.toEqual({ forced: false });
    expect(server.listening).toBe(false);
  });

  it("closes a connection whose streamed response began before the drain once that response ends", async () => {
    await start();
    const streaming = await openRawConnection(port);
    send(streaming, "/slow");
    await until(() => held.length === 1);
    held[0]!.writeHead(200, { "Content-Type": "text/plain" });
    held[0]!.write("first part ");
    await until(() => streaming.received().includes("first part"));

    const drained = drainServer(server, { graceMs: 60_000 });
    held[0]!.end("last part");
    await streaming.closed;
    expect(streaming.received()).toMatch(/last part/);
    await expect(drained).resolves.toEqual({ forced: false });
  });

  it("cuts a request still running after the grace period", async () => {
    await start();
    const stuck = await openRawConnection(port);
    send(stuck, "/slow");
    await until(() => held.length === 1);
    const drained = drainServer(server, { graceMs: 50 });
    await expect(drained).resolves.toEqual({ forced: true });
    await stuck.closed;
    expect(stuck.received()).toBe("");
  });

  it("answers the same promise when called twice", async () => {
    await start();
    const first = drainServer(server, { graceMs: 1_000 });
    expect(drainServer(server, { graceMs: 1_000 })).toBe(first);
    await expect(first).resolves.toEqual({ forced: false });
  });
});
