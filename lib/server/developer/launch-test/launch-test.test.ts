// The launch tester against real HTTP servers started inside the test: a lax tool that accepts
// everything, a strict one built on lib/lti/verifyLaunch, and a few misbehaving ones.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { env, resetEnvCache } from "@/lib/env";
import { verifyLaunch } from "@/lib/lti/verify-launch";
import { setupTestDatabase } from "@/test/database";
import { createTool } from "../create-tool";
import { createDeveloper, pngBytes, type TTestDeveloper } from "@/test/fixtures/developer";
import { NO_ANSWER } from "./post-launch";
import { resolveLaunchTarget, TARGET_REFUSED } from "./resolve-launch-target";
import { runLaunchTest, type TLaunchTestReport } from "./run-launch-test";

const t = setupTestDatabase();
const SECRET = "segredo-da-ferramenta-estrita";
const KEY = "ferramenta-estrita";

interface TestServer {
  url: string;
  hits: Array<{ method: string; url: string; body: string; contentType: string }>;
  close: () => Promise<void>;
}

async function startServer(handler: (req: IncomingMessage, body: string, res: ServerResponse, port: number) => unknown): Promise<TestServer> {
  const hits: TestServer["hits"] = [];
  let port = 0;
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      hits.push({ method: req.method ?? "", url: req.url ?? "", body, contentType: req.headers["content-type"] ?? "" });
      void handler(req, body, res, port);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const servers: TestServer[] = [];
let lax: TestServer;
let strict: TestServer;
let dev: TTestDeveloper;

async function toolAt(launchUrl: string, consumerKey = KEY, sharedSecret = SECRET): Promise<string> {
  const { tool } = await createTool({
    actorPersonId: dev.personId,
    edtechId: dev.edtechId,
    fields: { title: `Ferramenta ${servers.length}`, shortDescription: "x", longDescription: "y", siteUrl: "https://tool.example", launchUrl, consumerKey },
    sharedSecret,
    logo: pngBytes(),
  });
  return tool.id;
}

const statuses = (report: TLaunchTestReport) => Object.fromEntries(report.cases.map((c) => [c.id, [c.status, c.passed]]));

beforeAll(async () => {
  dev = await createDeveloper("Tester Dev");
  lax = await startServer((_req, _body, res) => {
    res.writeHead(200, { "Content-Type": "text/html" }).end("<h1>Bem-vindo</h1>");
  });
  const nonces = new Set<string>();
  strict = await startServer(async (req, body, res, port) => {
    const result = await verifyLaunch(
      { method: req.method ?? "", url: `http://127.0.0.1:${port}${req.url}`, fields: [...new URLSearchParams(body).entries()] },
      {
        now: () => Math.floor(Date.now() / 1000),
        lookupSecret: async (key) => (key === KEY ? SECRET : null),
        rememberNonce: async (key, nonce) => {
          const id = `${key} ${nonce}`;
          if (nonces.has(id)) return false;
          nonces.add(id);
          return true;
        },
      },
    );
    res.writeHead(result.ok ? 200 : 401, { "Content-Type": "text/plain" }).end(result.ok ? "ok" : result.rule);
  });
  servers.push(lax, strict);
});

afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
});

describe("runLaunchTest", () => {
  it("a strict tool (lib/lti verifyLaunch) passes every case; the report shows each status", async () => {
    const toolId = await toolAt(`${strict.url}/launch?curso=7`);
    const report = await runLaunchTest({ actorPersonId: dev.personId, toolId, allowPrivateNetwork: true });
    expect(statuses(report)).toEqual({
      valid: [200, true],
      replayed_nonce: [401, true],
      bad_signature: [401, true],
      old_timestamp: [401, true],
      future_timestamp: [401, true],
      wrong_lti_version: [401, true],
      wrong_message_type: [401, true],
      missing_resource_link_id: [401, true],
      unknown_consumer_key: [401, true],
      missing_consumer_key: [401, true],
    });
    expect(report.passed).toBe(true);
    // Each request is a form-encoded POST to the registered URL, query kept.
    const sent = strict.hits.slice(-10);
    expect(sent.every((h) => h.method === "POST" && h.url === "/launch?curso=7" && h.contentType === "application/x-www-form-urlencoded")).toBe(true);
    expect(sent[0]!.body).toBe(sent[1]!.body); // the replay is byte-identical
    const audit = await t.db.prisma.auditLog.findFirstOrThrow({ where: { targetId: toolId, action: "tool.launch_test" } });
    expect(audit.details).toMatchObject({ passed: true, failedCases: [] });
    expect(JSON.stringify(audit)).not.toContain(SECRET);
  });

  it("a lax tool that answers 200 to everything fails every negative case", async () => {
    const toolId = await toolAt(`${lax.url}/launch`, "lax-key");
    const report = await runLaunchTest({ actorPersonId: dev.personId, toolId, allowPrivateNetwork: true });
    expect(report.passed).toBe(false);
    expect(report.cases[0]).toMatchObject({ id: "valid", status: 200, passed: true });
    for (const c of report.cases.slice(1)) {
      expect(c).toMatchObject({ expected: "refuse", status: 200, passed: false, note: expect.stringMatching(/aceitou/) });
    }
    expect(report.cases).toHaveLength(10);
  });

  it("with the wrong secret registered, the valid case fails and the replay is reported inconclusive", async () => {
    const toolId = await toolAt(`${strict.url}/outro`, KEY, "um-segredo-diferente-do-da-ferramenta");
    const report = await runLaunchTest({ actorPersonId: dev.personId, toolId, allowPrivateNetwork: true });
    expect(report.cases.find((c) => c.id === "valid")).toMatchObject({ status: 401, passed: false, note: expect.stringMatching(/segredo/) });
    expect(report.cases.find((c) => c.id === "replayed_nonce")).toMatchObject({ passed: false, note: expect.stringMatching(/Inconclusivo/) });
  });

  it("a refusal with another status than 401 fails, saying the spec asks for 401", async () => {
    // Refuses every repeated nonce, but with 403.
    const seen = new Set<string>();
    const forbidding = await startServer((_req, body, res) => {
      const nonce = new URLSearchParams(body).get("oauth_nonce") ?? "";
      res.writeHead(seen.has(nonce) ? 403 : 200).end();
      seen.add(nonce);
    });
    servers.push(forbidding);
    const report = await runLaunchTest({ actorPersonId: dev.personId, toolId: await toolAt(`${forbidding.url}/l`, "quatro-zero-tres"), allowPrivateNetwork: true });
    expect(report.cases.find((c) => c.id === "replayed_nonce")).toMatchObject({ status: 403, passed: false, note: expect.stringMatching(/pede 401/) });
  });

  it("does not follow redirects: a 3xx is reported as it is and its Location is never requested", async () => {
    const elsewhere = await startServer((_req, _body, res) => res.writeHead(200).end());
    const redirecting = await startServer((_req, _body, res) => res.writeHead(302, { Location: `${elsewhere.url}/capturado` }).end());
    servers.push(elsewhere, redirecting);
    const report = await runLaunchTest({ actorPersonId: dev.personId, toolId: await toolAt(`${redirecting.url}/launch`, "redir"), allowPrivateNetwork: true });
    expect(report.cases.every((c) => c.status === 302)).toBe(true);
    expect(report.cases[2]).toMatchObject({ id: "bad_signature", passed: false, note: expect.stringMatching(/redirecionou \(302\)/) });
    expect(report.cases[0]).toMatchObject({ id: "valid", passed: true });
    expect(elsewhere.hits).toHaveLength(0);
    expect(redirecting.hits).toHaveLength(10);
  });

  it("times out a tool that never answers, and does not send the rest", async () => {
    const silent = await startServer(() => undefined);
    servers.push(silent);
    const started = Date.now();
    const report = await runLaunchTest({ actorPersonId: dev.personId, toolId: await toolAt(`${silent.url}/launch`, "silent"), allowPrivateNetwork: true, timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(report.cases[0]).toMatchObject({ id: "valid", status: null, passed: false, note: NO_ANSWER });
    expect(report.cases.slice(1).every((c) => c.status === null && c.note?.startsWith("Não enviado"))).toBe(true);
    expect(silent.hits.length).toBeLessThanOrEqual(1);
  });

  it("reports a refused connection per case without throwing", async () => {
    const gone = await startServer(() => undefined);
    const url = `${gone.url}/launch`;
    await gone.close();
    const report = await runLaunchTest({ actorPersonId: dev.personId, toolId: await toolAt(url, "gone"), allowPrivateNetwork: true });
    expect(report.cases[0]).toMatchObject({ status: null, note: NO_ANSWER });
  });

  it("gives one answer for every unreachable target: refused, reset, silent, TLS to a plain server", async () => {
    const reset = await startServer((_req, _body, res) => res.socket?.destroy());
    const silent = await startServer(() => undefined);
    const plain = await startServer((_req, _body, res) => res.end("ok"));
    const gone = await startServer(() => undefined);
    const goneUrl = gone.url;
    await gone.close();
    servers.push(reset, silent, plain);
    const notes = [];
    for (const [name, url] of [["reset", reset.url], ["silent", silent.url], ["tls", plain.url.replace("http:", "https:")], ["refused", goneUrl]] as const) {
      const report = await runLaunchTest({ actorPersonId: dev.personId, toolId: await toolAt(`${url}/launch`, `un-${name}`), allowPrivateNetwork: true, timeoutMs: 300 });
      notes.push(report.cases[0]!.note);
    }
    expect(notes).toEqual([NO_ANSWER, NO_ANSWER, NO_ANSWER, NO_ANSWER]);
  });

  it("outside demo mode refuses a loopback target before sending anything", async () => {
    const toolId = await toolAt(`${lax.url}/fora-do-demo`, "fora-do-demo");
    const before = lax.hits.length;
    await expect(runLaunchTest({ actorPersonId: dev.personId, toolId, allowPrivateNetwork: false })).rejects.toMatchObject({
      code: "bad_request",
      message: TARGET_REFUSED,
    });
    expect(lax.hits.length).toBe(before);
  });

  it("reaches loopback only when the operator sets DEMO_TOOL=1: not with DEMO_TOOL=0, not with the embedded default", async () => {
    const toolId = await toolAt(`${lax.url}/modo`, "modo");
    const saved = process.env.DEMO_TOOL;
    try {
      process.env.DEMO_TOOL = "0";
      resetEnvCache();
      await expect(runLaunchTest({ actorPersonId: dev.personId, toolId })).rejects.toMatchObject({ code: "bad_request" });
      delete process.env.DEMO_TOOL;
      resetEnvCache();
      expect(env().DEMO_TOOL).toBe(process.env.DATABASE_URL ? "0" : "1");
      await expect(runLaunchTest({ actorPersonId: dev.personId, toolId })).rejects.toMatchObject({ code: "bad_request", message: TARGET_REFUSED });
      process.env.DEMO_TOOL = "1";
      resetEnvCache();
      expect((await runLaunchTest({ actorPersonId: dev.personId, toolId })).cases[0]).toMatchObject({ status: 200 });
    } finally {
      if (saved === undefined) delete process.env.DEMO_TOOL;
      else process.env.DEMO_TOOL = saved;
      resetEnvCache();
    }
  });

  it("connects only to the addresses it checked (a second DNS answer cannot redirect it)", async () => {
    // *.localhost is a loopback name by rule; the injected lookup is the only resolver consulted.
    const port = new URL(lax.url).port;
    const toolId = await toolAt(`http://ferramenta.localhost:${port}/pinned`, "pinned");
    let lookups = 0;
    const report = await runLaunchTest({
      actorPersonId: dev.personId,
      toolId,
      allowPrivateNetwork: true,
      lookup: async () => {
        lookups += 1;
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    expect(lookups).toBe(1);
    expect(report.cases[0]).toMatchObject({ status: 200 });
    expect(lax.hits.filter((h) => h.url === "/pinned")).toHaveLength(10);
  });

  it("another edtech's member cannot run the tester on the tool", async () => {
    const toolId = await toolAt(`${lax.url}/alheia`, "alheia");
    const other = await createDeveloper("Outra Dev");
    const before = lax.hits.length;
    await expect(runLaunchTest({ actorPersonId: other.personId, toolId, allowPrivateNetwork: true })).rejects.toMatchObject({ code: "not_found" });
    expect(lax.hits.length).toBe(before);
  });

  it("is rate limited per person", async () => {
    const busy = await createDeveloper("Dev Apressada");
    const { tool } = await createTool({
      actorPersonId: busy.personId,
      edtechId: busy.edtechId,
      fields: { title: "Rápida", shortDescription: "x", longDescription: "y", siteUrl: "https://tool.example", launchUrl: `${lax.url}/rapida`, consumerKey: "rapida" },
      logo: pngBytes(),
    });
    for (let i = 0; i < 30; i++) await runLaunchTest({ actorPersonId: busy.personId, toolId: tool.id, allowPrivateNetwork: true });
    await expect(runLaunchTest({ actorPersonId: busy.personId, toolId: tool.id, allowPrivateNetwork: true })).rejects.toMatchObject({ code: "too_many_requests" });
  }, 60_000);
});

describe("resolveLaunchTarget", () => {
  const lookupTo = (...addresses: string[]) => async () => addresses.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));

  it("accepts a name whose every address is public", async () => {
    expect(await resolveLaunchTarget({ launchUrl: "https://tool.example/l", allowPrivateNetwork: false, lookup: lookupTo("93.184.216.34", "2606:4700::1") })).toMatchObject({ ok: true });
  });

  it.each([
    ["one private address among public ones", ["93.184.216.34", "10.0.0.7"]],
    ["a mapped IPv6 loopback", ["::ffff:127.0.0.1"]],
    ["an IPv6 unique-local address", ["fd00::5"]],
    ["the metadata service", ["169.254.169.254"]],
  ])("refuses %s with the one answer, which names no address", async (_, addresses) => {
    const result = await resolveLaunchTarget({ launchUrl: "https://tool.example/l", allowPrivateNetwork: false, lookup: lookupTo(...addresses) });
    expect(result).toEqual({ ok: false, message: TARGET_REFUSED });
  });

  it("demo mode allows loopback and private, never link-local or reserved", async () => {
    for (const address of ["127.0.0.1", "10.1.1.1", "::1"]) {
      expect(await resolveLaunchTarget({ launchUrl: "https://tool.example/l", allowPrivateNetwork: true, lookup: lookupTo(address) })).toMatchObject({ ok: true });
    }
    for (const address of ["169.254.169.254", "fe80::1", "0.0.0.0"]) {
      expect(await resolveLaunchTarget({ launchUrl: "https://tool.example/l", allowPrivateNetwork: true, lookup: lookupTo(address) })).toMatchObject({ ok: false });
    }
  });

  it("checks IP literals without DNS, and refuses names that do not resolve", async () => {
    expect(await resolveLaunchTarget({ launchUrl: "https://10.0.0.1/l", allowPrivateNetwork: false })).toMatchObject({ ok: false });
    expect(await resolveLaunchTarget({ launchUrl: "http://[::1]:9/l", allowPrivateNetwork: false })).toEqual({ ok: false, message: TARGET_REFUSED });
    const failing = async () => {
      throw Object.assign(new Error("nope"), { code: "ENOTFOUND" });
    };
    expect(await resolveLaunchTarget({ launchUrl: "https://nao-existe.example/l", allowPrivateNetwork: false, lookup: failing })).toMatchObject({
      ok: false,
      message: TARGET_REFUSED,
    });
  });

  it("resolves localhost with the system resolver and refuses it outside demo mode", async () => {
    expect(await resolveLaunchTarget({ launchUrl: "http://localhost:9/l", allowPrivateNetwork: false })).toMatchObject({ ok: false });
  });
});
