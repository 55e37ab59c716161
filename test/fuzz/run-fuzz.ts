// Sends the generated malformed requests to a served hub over loopback and tallies what came
// back: statuses per route, every 5xx, every connection reset and every answer slower than the
// limit, each with the request that caused it (seed + index replays it).
import http from "node:http";
import { nextRequest, prng, type TFuzzContext, type TFuzzRequest } from "./cases";

export interface TFuzzOptions {
  base: string;
  routes: readonly string[];
  context: TFuzzContext;
  requests: number;
  seed: number;
  concurrency?: number;
  /** An answer slower than this is reported (the acceptance bound). */
  slowMs?: number;
  onProgress?: (done: number) => void;
}

export interface TFuzzProblem {
  index: number;
  request: Omit<TFuzzRequest, "body"> & { bodyBytes: number };
  status: number | null;
  ms: number;
  error?: string;
  /** For a connection error: the request sent before it on the same keep-alive connection. */
  previousOnConnection?: string;
}

export interface TFuzzReport {
  requests: number;
  seed: number;
  ms: number;
  byRoute: Record<string, Record<string, number>>;
  serverErrors: TFuzzProblem[];
  resets: TFuzzProblem[];
  slow: TFuzzProblem[];
}

/** Node refuses to send a path with spaces, controls or characters past U+00FF: escape just those. */
function sendablePath(raw: string): string {
  return raw.replace(/[^\u0021-\u00ff]/gu, (c) => encodeURIComponent(c));
}

const lastOnSocket = new WeakMap<object, string>();

function describe(request: TFuzzRequest): string {
  return `${request.method} ${request.path.slice(0, 200)} (${request.body?.length ?? 0} B body, headers ${JSON.stringify(request.headers).slice(0, 300)})`;
}

function send(agent: http.Agent, base: URL, request: TFuzzRequest): Promise<{ status: number; error?: undefined; previous?: string } | { status: null; error: string; previous?: string }> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { ...request.headers };
    if (request.body) headers["content-length"] = request.body.length;
    let req: http.ClientRequest;
    try {
      req = http.request({ agent, host: base.hostname, port: base.port, method: request.method, path: sendablePath(request.path), headers, timeout: 60_000 });
    } catch (error) {
      resolve({ status: null, error: `not sendable: ${(error as Error).message}` });
      return;
    }
    req.on("response", (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0 }));
      res.on("error", (error) => resolve({ status: null, error: (error as NodeJS.ErrnoException).code ?? error.message }));
    });
    let previous: string | undefined;
    req.on("socket", (socket) => {
      previous = lastOnSocket.get(socket);
      lastOnSocket.set(socket, describe(request));
    });
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (error) => resolve({ status: null, error: (error as NodeJS.ErrnoException).code ?? error.message, ...(previous ? { previous } : {}) }));
    req.end(request.body);
  });
}

export async function runFuzz(options: TFuzzOptions): Promise<TFuzzReport> {
  const { requests, seed, concurrency = 4, slowMs = 5_000 } = options;
  const base = new URL(options.base);
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const random = prng(seed);
  const report: TFuzzReport = { requests, seed, ms: 0, byRoute: {}, serverErrors: [], resets: [], slow: [] };
  const started = Date.now();
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < requests) {
      const index = next++;
      const request = nextRequest(options.routes, random, options.context);
      const t0 = performance.now();
      const answer = await send(agent, base, request);
      const ms = Math.round(performance.now() - t0);
      const key = answer.status === null ? `error:${answer.error}` : String(answer.status);
      const route = (report.byRoute[`${request.method} ${request.route}`] ??= {});
      route[key] = (route[key] ?? 0) + 1;
      const { body, ...rest } = request;
      const problem: TFuzzProblem = { index, request: { ...rest, bodyBytes: body?.length ?? 0 }, status: answer.status, ms, ...(answer.error ? { error: answer.error } : {}), ...(answer.previous ? { previousOnConnection: answer.previous } : {}) };
      if (answer.status !== null && answer.status >= 500) report.serverErrors.push(problem);
      if (answer.status === null && !answer.error.startsWith("not sendable")) report.resets.push(problem);
      if (ms > slowMs) report.slow.push(problem);
      done++;
      if (options.onProgress && done % 1000 === 0) options.onProgress(done);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  report.ms = Date.now() - started;
  return report;
}

/** Signs in through the hub's own forms and picks the first profile: a Cookie header. */
export async function signedInCookie(base: string, login: string, password: string): Promise<string> {
  const jar = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(";");
      const [name, ...value] = pair!.split("=");
      jar.set(name!.trim(), value.join("="));
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join("; ");
  const form = (fields: Record<string, string>) => ({
    method: "POST",
    redirect: "manual" as const,
    headers: { "content-type": "application/x-www-form-urlencoded", origin: base, cookie: cookie(), "x-forwarded-for": "203.0.113.9" },
    body: new URLSearchParams(fields).toString(),
  });
  const signedIn = await fetch(`${base}/entrar`, form({ login, password, callbackUrl: "/" }));
  if (signedIn.status !== 303) throw new Error(`sign-in as ${login} answered ${signedIn.status}`);
  keep(signedIn);
  const picker = await fetch(`${base}/perfil`, { headers: { cookie: cookie() }, redirect: "manual" });
  const profileId = /name="profileId"[^>]*value="([^"]+)"/.exec(await picker.text())?.[1];
  if (profileId) {
    const chosen = await fetch(`${base}/perfil/escolher`, { ...form({ profileId, callbackUrl: "/", returnTo: "/perfil" }), headers: { ...form({}).headers, cookie: cookie() } });
    keep(chosen);
  }
  return cookie();
}

/**
 * What a fuzz run needs from the demo hub: sessions (anonymous, a school manager, a developer),
 * the ids of the manager's schools, and a reading of those schools' summaries, taken before and
 * after the run to show that no refused request wrote anything.
 */
export async function demoFuzzContext(base: string): Promise<{ context: TFuzzContext; readSummaries: () => Promise<string[]> }> {
  const sessions = ["", await signedInCookie(base, "gestor@demo.hub.br", "hub-demo"), await signedInCookie(base, "dev@edtech.demo", "hub-demo")];
  const page = await (await fetch(`${base}/gestao`, { headers: { cookie: sessions[1]! } })).text();
  const ids = [...new Set([...page.matchAll(/href="\/gestao\/([0-9a-f-]{36})"/g)].map((m) => m[1]!))];
  const readSummaries = () => Promise.all(ids.map(async (id) => (await fetch(`${base}/manager/v1/summary/${id}`, { headers: { "x-api-key": "demo-api-key" } })).text()));
  return { context: { ids, sessions, origin: base }, readSummaries };
}

/** The report as a Markdown table: one row per method and route, the statuses seen. */
export function reportTable(report: TFuzzReport): string {
  const rows = Object.entries(report.byRoute).sort(([a], [b]) => a.localeCompare(b));
  const lines = ["| Method and route | Requests | Statuses |", "| --- | ---: | --- |"];
  for (const [route, statuses] of rows) {
    const total = Object.values(statuses).reduce((a, b) => a + b, 0);
    const detail = Object.entries(statuses).sort(([a], [b]) => a.localeCompare(b)).map(([s, n]) => `${s}: ${n}`).join(", ");
    lines.push(`| \`${route}\` | ${total} | ${detail} |`);
  }
  return lines.join("\n");
}
