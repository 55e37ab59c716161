// What an operator sees, on a hub of this file's own started with `npm start` exactly as the
// README says (its own port and embedded database, HUB_TEST_FAULTS=1 for the forced error): the
// log lines it writes (no secret or personal data; one line with the request id and the stack for
// an internal error) and a SIGTERM to npm (the hub drains and the whole process tree exits 0).
// Node APIs only (no browser); the served hub of the other specs is not used.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { rmSync } from "node:fs";
import { connect } from "node:net";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { openRawConnection } from "../test/raw-connection";
import { closedPort } from "../test/tcp-proxy";

test.describe.configure({ mode: "serial", timeout: 240_000 });

const root = path.resolve(import.meta.dirname, "..");
let hub: ChildProcess;
let port = 0;
let base = "";
let output = "";
let dataDir = "";
let exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

test.beforeAll(async () => {
  // A first `npm start` migrates and seeds a new embedded database: on a loaded 2-core machine that
  // outlasts the hooks' default 60 s (the loop below bounds the wait itself).
  test.setTimeout(240_000);
  port = await closedPort();
  base = `http://localhost:${port}`;
  dataDir = path.join(root, ".data", `e2e-operations-${port}`);
  rmSync(dataDir, { recursive: true, force: true });
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), HUB_BASE_URL: base, HUB_DATA_DIR: dataDir, HUB_TEST_FAULTS: "1", NEXT_TELEMETRY_DISABLED: "1", LOG_LEVEL: "info" };
  delete env.DATABASE_URL; // its own embedded database, whatever the run's
  delete env.HUB_SECRET;
  // detached: its own process group, so the test can tell whether any process of the tree is left.
  hub = spawn("npm", ["start"], { cwd: root, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  hub.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  hub.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  exited = new Promise((resolve) => hub.on("exit", (code, signal) => resolve({ code, signal })));
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (i > 400 || hub.exitCode !== null) throw new Error(`npm start did not serve /healthz:\n${output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
});

test.afterAll(() => {
  // Whatever is left of the tree if a test failed (none after a passing shutdown test).
  try {
    process.kill(-hub.pid!, "SIGKILL");
  } catch {
    // the group is gone
  }
  rmSync(dataDir, { recursive: true, force: true });
});

/** The JSON log lines written since `from` (the server's stdout also carries npm's banner). */
function logLines(from = 0): Record<string, unknown>[] {
  return output
    .slice(from)
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

test("what Next would answer with a 500 is a 4xx from the guard, GET and HEAD alike", async () => {
  for (const url of ["/manager/v1/data/%ZZ", "/assets/%", "/launch/%ZZ", "/api/auth/%FF%FE", "/oauth/authorize?client_id=a%00b"]) {
    const res = await fetch(base + url);
    expect(res.status, url).toBe(400);
    expect(Object.keys((await res.json()) as object), url).toEqual(["message"]);
    const head = await fetch(base + url, { method: "HEAD" });
    expect(head.status, `HEAD ${url}`).toBe(400);
    expect(await head.text()).toBe("");
  }
  const crossOrigin = await fetch(`${base}/gestao`, { method: "POST", headers: { "Next-Action": "0".repeat(42), Origin: "http://evil.example", "Content-Type": "text/plain" }, body: "[]" });
  expect(crossOrigin.status).toBe(403);
  for (const [type, body] of [
    ["multipart/form-data", "x"],
    ["multipart/form-data; boundary=abc", "garbage"],
    ["multipart/form-data; boundary=abc", '--abc\r\nContent-Disposition: form-data; name="x"\r\n\r\ntruncado'],
  ] as const) {
    for (const page of ["/", "/login", "/gestao"]) {
      const res = await fetch(base + page, { method: "POST", headers: { "Content-Type": type, Origin: base }, body, redirect: "manual" });
      expect(res.status, `${page} ${type} ${body}`).toBe(400);
    }
  }
});

test("no password, API key, token, client secret or CPF reaches the log", async () => {
  const secrets = {
    password: "Senha-Secreta-7391!",
    apiKey: "hub-api-key-5f2c9e71b0",
    bearer: "eyJhbGciOiJIUzI1NiJ9.token-secreto-4411",
    clientSecret: "client-secret-88d1e4a2",
    cpf: "529.982.247-25",
  };
  const from = output.length;
  const origin = { Origin: base };
  const form = { "Content-Type": "application/x-www-form-urlencoded", ...origin };
  const requests: [string, RequestInit][] = [
    ["/entrar", { method: "POST", headers: form, body: new URLSearchParams({ email: "ana.souza@demo.hub.br", password: secrets.password, cpf: secrets.cpf }).toString(), redirect: "manual" }],
    [`/api/auth/callback/credentials?password=${secrets.password}`, { method: "POST", headers: form, body: `email=x%40y.z&password=${secrets.password}`, redirect: "manual" }],
    ["/manager/v1/data/org-1?limit=5", { headers: { "x-api-key": secrets.apiKey } }],
    ["/manager/v1/summary", { headers: { Authorization: `Bearer ${secrets.bearer}` } }],
    ["/users/v1/users/info", { headers: { Authorization: `Bearer ${secrets.bearer}`, Cookie: `next-auth.session-token=${secrets.bearer}` } }],
    ["/lti/v1/oauth2/authorize", { method: "POST", headers: { Authorization: `Basic ${Buffer.from(`demo-app:${secrets.clientSecret}`).toString("base64")}`, "Content-Type": "application/x-www-form-urlencoded" }, body: `grant_type=client_credentials&client_secret=${secrets.clientSecret}` }],
    [`/lti/v1/oauth2/authorize?client_id=demo-app&client_secret=${secrets.clientSecret}&cpf=${secrets.cpf}`, { redirect: "manual" }],
    // Failures log too: the forced 500, a refused path, a 404, each carrying secrets.
    [`/test-fault?password=${secrets.password}&cpf=${secrets.cpf}`, { headers: { Authorization: `Bearer ${secrets.bearer}`, "x-api-key": secrets.apiKey } }],
    [`/launch/%ZZ?client_secret=${secrets.clientSecret}`, { headers: { Cookie: `next-auth.session-token=${secrets.bearer}` } }],
    [`/nao-existe/${encodeURIComponent(secrets.cpf)}?api_key=${secrets.apiKey}`, {}],
  ];
  for (const [url, init] of requests) {
    const res = await fetch(base + url, init);
    expect(res.status, url).toBeLessThan(600);
    await res.arrayBuffer();
  }
  // The requests were logged (an access line each, written once the response is closed), so the
  // test looks at real output.
  await expect.poll(() => logLines(from).filter((l) => l.msg === "request").length).toBeGreaterThanOrEqual(requests.length);
  expect(logLines(from).some((l) => l.msg === "Unhandled error")).toBe(true);
  const written = output.slice(from);
  for (const [name, secret] of Object.entries(secrets)) {
    expect(written.includes(secret), `${name} appears in the log`).toBe(false);
    expect(written.includes(encodeURIComponent(secret)), `${name} (URL-encoded) appears in the log`).toBe(false);
  }
  expect(written.includes(Buffer.from(`demo-app:${secrets.clientSecret}`).toString("base64"))).toBe(false);
});

test("a forced internal error: one log line with the request id and the stack, a 500 with only message and requestId", async () => {
  const requestId = `e2e-${randomUUID()}`;
  const res = await fetch(`${base}/test-fault`, { headers: { "X-Request-Id": requestId } });
  expect(res.status).toBe(500);
  expect(res.headers.get("x-request-id")).toBe(requestId);
  const body = (await res.json()) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(["message", "requestId"]);
  expect(body.requestId).toBe(requestId);
  expect(JSON.stringify(body)).not.toMatch(/forced|TypeError|at /);

  await expect.poll(() => logLines().filter((l) => l.requestId === requestId && l.msg === "request").length).toBe(1);
  const errors = logLines().filter((l) => l.requestId === requestId && (l.level as number) >= 50);
  expect(errors).toHaveLength(1);
  const err = errors[0]!.err as { type: string; message: string; stack: string };
  expect(err.type).toBe("TypeError");
  expect(err.stack).toMatch(/forced internal error[\s\S]*\n\s+at /);

  // An incoming id that is not sane is replaced, not echoed.
  const forged = await fetch(`${base}/healthz`, { headers: { "X-Request-Id": 'x" {"level":60}' + "z".repeat(80) } });
  expect(forged.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
});

async function until(what: string, check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

test("an idle keep-alive connection stays open past 5 s: 65 s announced, a second request after 6 s answered on it", async () => {
  const connection = await openRawConnection(port);
  const get = () => connection.socket.write(`GET /healthz HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: keep-alive\r\n\r\n`);
  const answers = () => connection.received().match(/^HTTP\/1\.1 200 /gm)?.length ?? 0;
  get();
  await until("the first answer", () => answers() === 1);
  expect(connection.received()).toMatch(/\r\nKeep-Alive: timeout=65\r\n/i);
  let closedEarly = false;
  void connection.closed.then(() => (closedEarly = true));
  await new Promise((r) => setTimeout(r, 6_000)); // past Node's 5 s default
  expect(closedEarly).toBe(false);
  get();
  await until("the second answer, on the same connection", () => answers() === 2);
  connection.socket.destroy();
});

test("SIGTERM to npm start: idle keep-alive closed at once, the request in flight finishes, the tree exits 0", async () => {
  const idle = await openRawConnection(port);
  idle.socket.write(`GET /healthz HTTP/1.1\r\nHost: localhost:${port}\r\nConnection: keep-alive\r\n\r\n`);
  await until("the idle connection's first answer", () => /\r\n\r\n[\s\S]*\}/.test(idle.received()));
  expect(idle.received()).toMatch(/Connection: keep-alive/i);

  // In flight: a sign-in POST whose body the client has only half sent; the client decides when
  // it completes, so the request is certainly running when SIGTERM arrives.
  const body = new URLSearchParams({ email: "ninguem@demo.hub.br", password: "senha-errada" }).toString();
  const busy = await openRawConnection(port);
  busy.socket.write(
    `POST /entrar HTTP/1.1\r\nHost: localhost:${port}\r\nOrigin: ${base}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body.slice(0, 10)}`,
  );
  await new Promise((r) => setTimeout(r, 300)); // the server reads the headers

  const signalledAt = Date.now();
  process.kill(hub.pid!, "SIGTERM"); // npm's own PID, as a process manager does
  await idle.closed; // closed by the server while the POST is still waiting for its body
  expect(busy.received()).toBe("");

  busy.socket.write(body.slice(10));
  await busy.closed;
  expect(busy.received()).toMatch(/^HTTP\/1\.1 [23]\d\d /);
  expect(busy.received()).toMatch(/\r\nConnection: close\r\n/i);

  const { code, signal } = await exited;
  const exitMs = Date.now() - signalledAt;
  test.info().annotations.push({ type: "SIGTERM to exit (ms)", description: String(exitMs) });
  expect({ code, signal }).toEqual({ code: 0, signal: null });
  // Nothing of the tree is left (no process in its group) and nothing listens on the port.
  await until("the process group to be gone", () => {
    try {
      process.kill(-hub.pid!, 0);
      return false;
    } catch {
      return true;
    }
  });
  const refused = await new Promise<string>((resolve) => {
    const probe = connect(port, "127.0.0.1");
    probe.on("connect", () => (probe.destroy(), resolve("connected")));
    probe.on("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? "error"));
  });
  expect(refused).toBe("ECONNREFUSED");
  expect(output).toMatch(/SIGTERM: shutting down/);
});
