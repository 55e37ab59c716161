// Metrics and traces on the served hub (issue #44 point 4, docs/operations.md): a hub of this
// file's own, server.mjs on the production build with HUB_METRICS_PORT and an OTLP endpoint — a
// receiver this file starts — on its own database (a new PostgreSQL database when DATABASE_URL is
// set, else a new embedded one). A person signs in, opens a tool, a partner exchanges a code and
// reads a Data API page: /metrics, read from the metrics port, counted each of them, and is not
// on the public port; the traces have the request's span with its request id and, on PostgreSQL,
// the statements as its descendants. (The ".operations.spec" in the name puts it in the
// playwright.config.ts project of the specs that start servers of their own.)
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { rmSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { serverSpawn } from "../scripts/lib/server-command.mjs";
import { closedPort } from "../test/tcp-proxy";

test.describe.configure({ mode: "serial", timeout: 240_000 });

const root = path.resolve(import.meta.dirname, "..");
const onPostgres = Boolean(process.env.DATABASE_URL);
const DATABASE = "hub_e2e_metrics";
let hub: ChildProcess;
let base = "";
let metricsBase = "";
let output = "";
let dataDir = "";
let receiver: Server;
/** Every span the OTLP receiver was sent (the JSON encoding, OTEL_EXPORTER_OTLP_PROTOCOL=http/json). */
const spans: TSpan[] = [];

interface TSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  scope: string;
  attributes: Record<string, unknown>;
}

interface TOtlpExport {
  resourceSpans?: Array<{ scopeSpans?: Array<{ scope?: { name?: string }; spans?: Array<Omit<TSpan, "scope" | "attributes"> & { attributes?: Array<{ key: string; value: Record<string, unknown> }> }> }> }>;
}

function sh(cmd: string, args: string[], env: NodeJS.ProcessEnv): void {
  const result = spawnSync(cmd, args, { cwd: root, env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
}

/** A tiny OTLP/HTTP receiver: POST /v1/traces with the JSON encoding, kept in `spans`. */
async function startReceiver(): Promise<string> {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (req.url === "/v1/traces") {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as TOtlpExport;
        for (const resource of body.resourceSpans ?? []) {
          for (const scope of resource.scopeSpans ?? []) {
            for (const span of scope.spans ?? []) {
              const attributes = Object.fromEntries((span.attributes ?? []).map(({ key, value }) => [key, Object.values(value)[0]]));
              spans.push({ ...span, scope: scope.scope?.name ?? "", attributes });
            }
          }
        }
      }
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
}

test.beforeAll(async () => {
  test.setTimeout(240_000);
  const port = await closedPort();
  const metricsPort = await closedPort();
  base = `http://localhost:${port}`;
  metricsBase = `http://127.0.0.1:${metricsPort}`;
  const otlp = await startReceiver();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    PORT: String(port),
    HUB_BASE_URL: base,
    NEXT_TELEMETRY_DISABLED: "1",
    DEMO_TOOL: "1",
    HUB_METRICS_PORT: String(metricsPort),
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    // Export every 200 ms rather than 5 s, so the test does not wait.
    OTEL_BSP_SCHEDULE_DELAY: "200",
    OTEL_SERVICE_NAME: "hub-e2e",
  };
  if (onPostgres) {
    const admin = process.env.DATABASE_URL!;
    sh("npx", ["tsx", "scripts/sql.ts", admin, `DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`], process.env);
    sh("npx", ["tsx", "scripts/sql.ts", admin, `CREATE DATABASE ${DATABASE}`], process.env);
    const url = new URL(admin);
    url.pathname = `/${DATABASE}`;
    env.DATABASE_URL = url.toString();
    env.HUB_SECRET ??= "e2e-metrics-secret-e2e-metrics-secret-0123";
  } else {
    dataDir = path.join(root, ".data", `e2e-metrics-${port}`);
    rmSync(dataDir, { recursive: true, force: true });
    env.HUB_DATA_DIR = dataDir;
    delete env.DATABASE_URL;
  }
  // Migrations and the demo seed, without traces (the script is not the served hub).
  sh("npx", ["tsx", "scripts/prepare-db.ts"], { ...env, OTEL_EXPORTER_OTLP_ENDPOINT: "" });
  hub = spawn(...serverSpawn(env, { cwd: root, stdio: ["ignore", "pipe", "pipe"] }));
  hub.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  hub.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
  for (let i = 0; ; i++) {
    const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    if (ok) break;
    if (i > 400 || hub.exitCode !== null) throw new Error(`server.mjs did not serve /healthz:\n${output.slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
});

test.afterAll(async () => {
  hub?.kill("SIGTERM");
  if (hub && hub.exitCode === null) await new Promise((resolve) => hub.once("exit", resolve));
  await new Promise((resolve) => receiver?.close(resolve));
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  if (onPostgres) sh("npx", ["tsx", "scripts/sql.ts", process.env.DATABASE_URL!, `DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`], process.env);
});

/** The metrics as the metrics port serves them. */
async function scrape(): Promise<string> {
  const response = await fetch(`${metricsBase}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain/);
  return response.text();
}

/** The sum of the samples of `name` whose labels include `labels` (0 when there is none). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][\w:]*)(\{[^}]*\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="([^"]*)"/g)].map((m) => [m[1]!, m[2]!]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) sum += Number(match[3]);
  }
  return sum;
}

/** Session cookies kept between calls, as a browser would. */
function cookieJar() {
  const jar = new Map<string, string>();
  return {
    keep(response: Response) {
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(";");
        const at = pair!.indexOf("=");
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
    },
    header: () => [...jar].map(([k, v]) => `${k}=${v}`).join("; "),
  };
}

test("/metrics is on the metrics port only, and counts sign-ins, launches, token exchanges and Data API pages", async () => {
  const public404 = await fetch(`${base}/metrics`);
  expect(public404.status).toBe(404);
  expect(await public404.text()).not.toContain("hub_http_requests_total");

  const before = await scrape();
  const jar = cookieJar();
  // A student signs in with her password (one profile: the sign-in is counted at once).
  const signIn = await fetch(`${base}/entrar`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams({ login: "aluno@demo.hub.br", password: "hub-demo", callbackUrl: "/" }).toString(),
  });
  expect(signIn.status).toBe(303);
  jar.keep(signIn);
  // …opens a tool from her gallery (an LTI 1.0 launch)…
  const gallery = await (await fetch(`${base}/`, { headers: { cookie: jar.header() } })).text();
  const placementId = /href="\/launch\/([0-9a-f-]{36})"/.exec(gallery)?.[1];
  expect(placementId).toBeTruthy();
  const launch = await fetch(`${base}/launch/${placementId}`, { headers: { cookie: jar.header() } });
  expect(launch.status).toBe(200);
  expect(await launch.text()).toContain("oauth_signature");
  // …and signs in to the demo application, which exchanges its code.
  const authorize = await fetch(`${base}/lti/v1/oauth2/authorize?${new URLSearchParams({ client_id: "demo-app", redirect_uri: `${base}/demo-app/callback`, response_type: "code", scope: "user.info", state: "metrics" })}`, {
    headers: { cookie: jar.header() },
    redirect: "manual",
  });
  expect(authorize.status).toBe(302);
  const code = new URL(authorize.headers.get("location")!).searchParams.get("code");
  const token = await fetch(`${base}/lti/v1/oauth2/authorize`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ grant_type: "authorization_code", client_id: "demo-app", client_secret: "demo-secret", code }),
  });
  expect(token.status).toBe(200);

  // A partner reads a page of a school's feed with its key.
  const manager = cookieJar();
  const managerSignIn = await fetch(`${base}/entrar`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base },
    body: new URLSearchParams({ login: "gestor@demo.hub.br", password: "hub-demo", callbackUrl: "/gestao" }).toString(),
  });
  manager.keep(managerSignIn);
  const orgId = /href="\/gestao\/([0-9a-f-]{36})"/.exec(await (await fetch(`${base}/gestao`, { headers: { cookie: manager.header() } })).text())?.[1];
  expect(orgId).toBeTruthy();
  const page = await fetch(`${base}/manager/v1/data/${orgId}?limit=5`, { headers: { "x-api-key": "demo-api-key" } });
  expect(page.status).toBe(200);
  const events = Object.values(((await page.json()) as { dados: Record<string, unknown[]> }).dados).flat().length;
  expect(events).toBeGreaterThan(0);

  const after = await scrape();
  const grew = (name: string, labels: Record<string, string>) => sample(after, name, labels) - sample(before, name, labels);
  expect(grew("hub_http_requests_total", { family: "sign_in", code: "303" })).toBeGreaterThanOrEqual(2);
  expect(grew("hub_http_requests_total", { family: "lti_launch", code: "200" })).toBe(1);
  expect(grew("hub_http_requests_total", { family: "oauth_authorize", code: "302" })).toBe(1);
  expect(grew("hub_http_requests_total", { family: "oauth_token", code: "200" })).toBe(1);
  expect(grew("hub_http_requests_total", { family: "data_api", code: "200" })).toBe(1);
  expect(grew("hub_http_requests_total", { family: "pages", code: "200" })).toBeGreaterThanOrEqual(2);
  expect(grew("hub_http_request_duration_seconds_count", { family: "data_api", status_class: "2xx" })).toBe(1);
  expect(grew("hub_sign_ins_total", { method: "password", role: "aluno" })).toBe(1);
  expect(grew("hub_launches_total", { lti_version: "1.0" })).toBe(1);
  expect(grew("hub_data_api_pages_total", { reader: "api_key", mode: "page" })).toBe(1);
  expect(grew("hub_data_api_events_total", { reader: "api_key", mode: "page" })).toBe(events);
  expect(grew("hub_partner_access_total", { channel: "data_api", status_class: "2xx" })).toBe(1);
  expect(grew("hub_partner_access_total", { channel: "lti_launch", status_class: "2xx" })).toBe(1);
  // The process's own metrics, and no replica gauge while nothing registers one.
  expect(after).toContain("process_cpu_seconds_total");
  expect(after).not.toContain("hub_db_replica_lag_seconds");
  if (onPostgres) {
    expect(after).toMatch(/^hub_db_pool_connections\{pool="primary",state="idle"\} \d+$/m);
    expect(sample(after, "hub_db_pool_max_connections", { pool: "primary" })).toBe(10);
    expect(grew("hub_db_pool_acquire_seconds_count", { pool: "primary" })).toBeGreaterThan(0);
  }
});

test("a request's trace carries its request id, and on PostgreSQL its statements", async () => {
  const requestId = `metrics-trace-${randomUUID()}`;
  const orgId = "00000000-0000-4000-8000-000000000000";
  const response = await fetch(`${base}/manager/v1/data/${orgId}?limit=1`, { headers: { "x-api-key": "demo-api-key", "x-request-id": requestId } });
  expect(response.headers.get("x-request-id")).toBe(requestId);
  // The key is checked against the database before the institution is looked up (404).
  expect(response.status).toBe(404);
  await expect.poll(() => spans.some((s) => s.attributes["hub.request_id"] === requestId), { timeout: 15_000 }).toBe(true);
  const request = spans.find((s) => s.attributes["hub.request_id"] === requestId)!;
  expect(request).toMatchObject({ scope: "@opentelemetry/instrumentation-http", name: "GET /manager/v1/data/:" });
  expect(request.parentSpanId ?? "").toBe("");
  expect(request.attributes).toMatchObject({ "http.route": "/manager/v1/data/:", "hub.route_family": "data_api" });
  // The id the access log line carries is the one on the span.
  await expect.poll(() => output.split("\n").some((line) => line.includes(`"requestId":"${requestId}"`) && line.includes('"msg":"request"'))).toBe(true);
  if (!onPostgres) return; // the embedded PGlite runs in the process: no pg statements to trace
  const descends = (span: TSpan): boolean => {
    for (let at: TSpan | undefined = span; at; at = spans.find((s) => s.spanId === at!.parentSpanId && s.traceId === at!.traceId)) if (at.spanId === request.spanId) return true;
    return false;
  };
  await expect.poll(() => spans.filter((s) => s.scope === "@opentelemetry/instrumentation-pg" && s.traceId === request.traceId && descends(s)).length, { timeout: 15_000 }).toBeGreaterThan(0);
  // The webhook worker's polls are not traces of their own: every statement has a parent.
  expect(spans.filter((s) => s.scope === "@opentelemetry/instrumentation-pg" && !s.parentSpanId)).toEqual([]);
});
