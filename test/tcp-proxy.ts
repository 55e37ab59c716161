// A TCP proxy between the hub and PostgreSQL that fault tests switch between states, so an outage
// can be staged without touching the real cluster (shared by everything else on the machine).
// Node APIs only: used by Vitest files, Playwright specs and bench scripts alike.
import net from "node:net";

/**
 * - `pass`: forwards both ways.
 * - `down`: not listening: new connections are refused (ECONNREFUSED), as with a stopped server.
 * - `blackhole`: accepts connections and never answers, as a hung server or a dead network path.
 * - `starting`: answers every new connection with PostgreSQL's FATAL 57P03 "the database system
 *   is starting up", as a restarting server does.
 */
export type TProxyMode = "pass" | "down" | "blackhole" | "starting";

export interface TcpProxy {
  readonly port: number;
  readonly mode: TProxyMode;
  /** `url` with its host and port replaced by the proxy's. */
  urlFor(url: string): string;
  /** Switches mode. Leaving `pass` destroys every open connection (in flight or idle) at once. */
  setMode(mode: TProxyMode): Promise<void>;
  /** Stops forwarding on every open connection without closing it: the peer waits forever. */
  freeze(): void;
  /** Connections accepted since the start. */
  readonly accepted: number;
  close(): Promise<void>;
}

/** A PostgreSQL ErrorResponse message (protocol 3.0): 'E', length, typed fields, terminator. */
function errorResponse(code: string, message: string): Buffer {
  const fields = Buffer.concat([
    ...[["S", "FATAL"], ["V", "FATAL"], ["C", code], ["M", message]].map(([type, value]) => Buffer.from(`${type}${value}\0`)),
    Buffer.from([0]),
  ]);
  const head = Buffer.alloc(5);
  head.write("E", 0);
  head.writeInt32BE(fields.length + 4, 1);
  return Buffer.concat([head, fields]);
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let mode: TProxyMode = "pass";
  let accepted = 0;
  const sockets = new Set<net.Socket>();
  const pipes: Array<[net.Socket, net.Socket]> = [];
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => socket.destroy());
  };

  const server = net.createServer((client) => {
    accepted += 1;
    track(client);
    if (mode === "blackhole") return;
    if (mode === "starting") {
      // The client speaks first (startup or SSL request); the server's answer is the refusal.
      client.once("data", () => client.end(errorResponse("57P03", "the database system is starting up")));
      return;
    }
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    upstream.on("close", () => client.destroy());
    client.on("close", () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
    pipes.push([client, upstream]);
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;

  const destroyAll = () => {
    for (const socket of sockets) socket.destroy();
    pipes.length = 0;
  };

  return {
    port,
    get mode() {
      return mode;
    },
    get accepted() {
      return accepted;
    },
    urlFor(url) {
      const u = new URL(url);
      u.hostname = "127.0.0.1";
      u.port = String(port);
      return u.toString();
    },
    async setMode(next) {
      if (next === mode) return;
      if (mode !== "pass" || next !== "pass") destroyAll();
      if (next === "down") await new Promise<void>((resolve) => server.close(() => resolve()));
      if (mode === "down") await listen(port);
      mode = next;
    },
    freeze() {
      for (const [client, upstream] of pipes) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    async close() {
      destroyAll();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A loopback port nothing listens on (bound, then released). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
