// A database outage as an operator meets it, on a served hub of this file's own (`node server.mjs`,
// the production build) whose PostgreSQL connection goes through a TCP proxy the test switches:
// stopped for 10 s under load, then a database that accepts connections and never answers.
// PostgreSQL only: the embedded PGlite runs inside the hub's process and has no connection to cut.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import pg from "pg";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { closedPort, startTcpProxy, type TcpProxy } from "../test/tcp-proxy";
import { signIn } from "./fixtures";
import { serverSpawn } from "../scripts/lib/server-command.mjs";

test.skip(!process.env.DATABASE_URL, "PostgreSQL only: PGlite is embedded in the hub's process");
test.describe.configure({ mode: "serial", timeout: 180_000 });

const root = path.resolve(import.meta.dirname, "..");
const API_KEY = "demo-api-key";
const OUTAGE_MS = 10_000;
const CONNECT_TIMEOUT_MS = 2_000;

let proxy: TcpProxy;
let hub: ChildProcess;
let base = "";
let output = "";
let admin: pg.Client;

test.beforeAll(async () => {
  // The database the suite's own served hub migrated and seeded (scripts/serve-e2e.mjs).
  const target = new URL(process.env.DATABASE_URL!);
  target.pathname = "/hub_e2e";
  admin = new pg.Client({ connectionString: target.toString() });
  await admin.connect();
  proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port || 5432) });
  const port = await closedPort();
  base = `http://localhost:${port}`;
  const env = {
    ...process.env,
    NODE_ENV: "production" as const,
    PORT: String(port),
    HUB_BASE_URL: base,
    DATABASE_URL: proxy.urlFor(target.toString()),
    HUB_SECRET: process.env.HUB_SECRET ?? "e2e-secret-e2e-secret-e2e-secret-e2e-secret",
    HUB_DB_CONNECT_TIMEOUT_MS: String(CONNECT_TIMEOUT_MS),
    DEMO_TOOL: "1",
    LOG_LEVEL: "warn",
  };
  hub = spawn(...serverSpawn(env, { cwd: root, stdio: ["ignore", "pipe", "pipe"] }));
  hub.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  hub.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  for (let i = 0; ; i++) {
    if (await fetch(`${base}/healthz`).then((r) => r.ok, () => false)) break;
    if (i > 240 || hub.exitCode !== null) throw new Error(`server.mjs did not start:\n${output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
});

test.afterAll(async () => {
  hub?.kill("SIGKILL");
  await proxy?.close();
  await admin?.end();
});

type TAnswer = { kind: string; phase: "before" | "outage" | "after"; status: number; retryAfter: string | null; message: string; ms: number; name?: string; result?: "imported" | "error" };

/** The message a failed answer carries: the hub's `message`, or OAuth's `error_description`. */
function messageOf(body: unknown): string {
  const b = (body ?? {}) as { message?: unknown; error_description?: unknown };
  return String(b.message ?? b.error_description ?? "");
}

async function signedInManager(browser: import("@playwright/test").Browser): Promise<{ request: APIRequestContext; schoolId: string; close: () => Promise<void> }> {
  const context = await browser.newContext({ baseURL: base });
  const page = await context.newPage();
  await signIn(page, "gestor@demo.hub.br");
  await page.goto("/gestao");
  const href = await page.getByRole("list", { name: "Instituições sob sua gestão" }).getByRole("link", { name: "EMEF Monteiro Lobato", exact: true }).getAttribute("href");
  return { request: page.request, schoolId: (href ?? "").split("/")[2]!, close: () => context.close() };
}

// A write whose COMMIT was in flight when the database went: applied or not, the hub cannot tell
// and says so (CommitOutcomeUnknownError) instead of "nothing was written".
const UNCERTAIN = /pode ter sido feita ou não/i;

test("PostgreSQL stopped for 10 s under load: every failed request is a 503 with Retry-After and a message, nothing acknowledged is lost, the hub recovers by itself", async ({ browser }) => {
  const manager = await signedInManager(browser);
  const run = randomBytes(3).toString("hex");
  const answers: TAnswer[] = [];
  let phase: TAnswer["phase"] = "before";
  let stop = false;
  let n = 0;

  // Three kinds of request, each a different way into the database: a Data API read (API key),
  // an OAuth token request (client lookup; an unknown code is a 400), and a one-row import (a
  // write in a transaction, behind the session and the manager's reach).
  const kinds: Record<string, () => Promise<TAnswer>> = {
    async data() {
      const started = Date.now();
      const r = await fetch(`${base}/manager/v1/data/${manager.schoolId}?limit=5`, { headers: { "x-api-key": API_KEY } });
      return { kind: "data", phase, status: r.status, retryAfter: r.headers.get("retry-after"), message: messageOf(await r.json()), ms: Date.now() - started };
    },
    async token() {
      const started = Date.now();
      const r = await fetch(`${base}/lti/v1/oauth2/authorize`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: "authorization_code", code: "no-such-code", client_id: "demo-app", client_secret: "x", redirect_uri: `${base}/demo-app/callback` }),
      });
      return { kind: "token", phase, status: r.status, retryAfter: r.headers.get("retry-after"), message: messageOf(await r.json()), ms: Date.now() - started };
    },
    async import() {
      const started = Date.now();
      const name = `Falha ${run} ${n++}`;
      const r = await manager.request.post(`/gestao/${manager.schoolId}/importar/executar?tipo=pessoas`, { data: `nome;perfil\n${name};aluno`, headers: { "content-type": "text/csv", origin: base } });
      const text = await r.text();
      const answer: TAnswer = { kind: "import", phase, status: r.status(), retryAfter: r.headers()["retry-after"] ?? null, message: "", ms: Date.now() - started, name };
      if (r.status() === 200) {
        const last = JSON.parse(text.trim().split("\n").at(-1)!) as { type: string; message?: string };
        answer.result = last.type === "result" ? "imported" : "error";
        answer.message = last.message ?? "";
      } else {
        answer.message = messageOf(JSON.parse(text));
      }
      return answer;
    },
  };
  const worker = async () => {
    for (let i = 0; !stop; i++) {
      for (const kind of Object.values(kinds)) answers.push(await kind());
    }
  };

  const logFrom = output.length;
  const workers = Array.from({ length: 3 }, worker);
  await new Promise((r) => setTimeout(r, 3_000));
  phase = "outage";
  await proxy.setMode("down");
  await new Promise((r) => setTimeout(r, OUTAGE_MS));
  phase = "after";
  await proxy.setMode("pass");
  await new Promise((r) => setTimeout(r, 5_000));
  stop = true;
  await Promise.all(workers);

  // An unknown code is refused (400 invalid_grant, or 401 invalid_client for the wrong secret).
  const normal = (a: TAnswer) => (a.kind === "token" ? a.status === 400 || a.status === 401 : a.status === 200 && a.result !== "error");
  // Every answer is the normal one, or a 503 with Retry-After and a readable message.
  for (const a of answers) {
    if (normal(a)) continue;
    if (a.kind === "import" && a.status === 200) {
      // The stream had started when the database went: its last line says nothing was written,
      // or — the connection lost while the COMMIT was in flight — that the hub cannot tell.
      expect(a.message, JSON.stringify(a)).toMatch(UNCERTAIN.test(a.message) ? UNCERTAIN : /nada foi gravado/i);
      continue;
    }
    expect({ status: a.status, retryAfter: a.retryAfter, hasMessage: a.message.length > 10 }, JSON.stringify(a)).toEqual({ status: 503, retryAfter: "5", hasMessage: true });
  }
  const during = answers.filter((a) => a.phase === "outage");
  expect(during.filter((a) => a.status === 503).length, "the outage was seen").toBeGreaterThan(10);
  // Recovered by itself: the last answers of each kind are the normal ones again.
  for (const kind of Object.keys(kinds)) {
    const last = answers.filter((a) => a.kind === kind && a.phase === "after").slice(-3);
    expect(last.length, kind).toBeGreaterThan(0);
    for (const a of last) expect(normal(a), JSON.stringify(a)).toBe(true);
  }

  // Writes: every import the hub acknowledged is in the database once; every other one is not.
  const imports = answers.filter((a) => a.kind === "import");
  const { rows } = await admin.query<{ name: string; n: number }>(`SELECT name, count(*)::int AS n FROM "Person" WHERE name LIKE $1 GROUP BY name`, [`Falha ${run} %`]);
  const stored = new Map(rows.map((r) => [r.name, r.n]));
  const acknowledged = imports.filter((a) => a.result === "imported").map((a) => a.name!);
  expect(acknowledged.length).toBeGreaterThan(5);
  expect(acknowledged.filter((name) => stored.get(name) !== 1), "acknowledged writes missing or doubled").toEqual([]);
  const uncertain = imports.filter((a) => UNCERTAIN.test(a.message));
  expect(uncertain.filter((a) => (stored.get(a.name!) ?? 0) > 1), "writes of unknown outcome doubled").toEqual([]);
  expect(imports.filter((a) => a.result !== "imported" && !uncertain.includes(a) && stored.has(a.name!)).map((a) => a.name), "refused writes that were stored").toEqual([]);

  // The log: no uncaught exception, no object dumps, and the outage reported a bounded number of times.
  const lines = output.slice(logFrom).split("\n").filter(Boolean);
  expect(lines.filter((l) => /uncaught/i.test(l))).toEqual([]);
  expect(lines.filter((l) => !l.startsWith("{")), "every log line is one JSON object").toEqual([]);
  expect(lines.length, "a few lines for the outage, not one per request").toBeLessThan(40);
  expect(hub.exitCode).toBeNull();
  const count = (f: (a: TAnswer) => boolean) => answers.filter(f).length;
  const figures = `${answers.length} requests, ${count((a) => a.status === 503)} answered 503, ${count((a) => a.result === "error")} imports ended by their error line, ${acknowledged.length} imports acknowledged and stored, ${lines.length} log lines, slowest ${Math.max(...answers.map((a) => a.ms))} ms`;
  test.info().annotations.push({ type: "figures", description: figures });
  console.log(`database outage: ${figures}`);
  await manager.close();
});

test("a database that accepts connections and never answers: 503 within the connect timeout, then back to normal", async () => {
  await proxy.setMode("blackhole");
  try {
    const answers = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const started = Date.now();
        const r = await fetch(`${base}/manager/v1/summary?org_id=x`, { headers: { "x-api-key": API_KEY } });
        return { status: r.status, retryAfter: r.headers.get("retry-after"), ms: Date.now() - started };
      }),
    );
    for (const a of answers) {
      expect(a.status).toBe(503);
      expect(a.retryAfter).toBe("5");
      // One connection attempt at most, plus the request's own work.
      expect(a.ms).toBeLessThan(CONNECT_TIMEOUT_MS + 4_000);
    }
  } finally {
    await proxy.setMode("pass");
  }
  await expect.poll(async () => (await fetch(`${base}/healthz`)).status, { timeout: 15_000 }).toBe(200);
});
