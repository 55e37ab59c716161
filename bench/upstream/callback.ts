// bench/upstream: the Hub's side of an upstream sign-in (issue #42, point 7) beside the password
// sign-in (docs/performance.md, "Upstream sign-in (#42)"). One command:
//
//   npx tsx bench/upstream/callback.ts                 # embedded database (PGlite)
//   DATABASE_URL=postgresql://postgres:postgres@localhost:5432/postgres npx tsx bench/upstream/callback.ts --pg
//
// Needs the production build. The bench makes a fresh database with the demo seed (bench/lib/hub),
// starts the tests' OpenID provider (test/fixtures/upstream-provider.ts, the google preset) in this
// process, and creates through the hub's own services a network, a school, --people students with
// e-mails of the network's domain and passwords, and the network's Google provider (client id and
// secret of the provider's client, whose redirect URI is <hub>/entrar/retorno). Then it serves
// server.mjs with DEMO_TOOL=1 (http issuers on loopback allowed) and, at 1 and 4 at a time:
//
// - upstream sign-ins, in batches of at most --batch, each step of the batch before the next:
//   1. start: GET /entrar/com/<id> → 303 to the provider with the sealed pending cookie (timed);
//   2. the provider's pages (signInHeadless: the login form the first time, then the provider's
//      own session), up to its redirect to the hub with code and state (timed apart: not the hub);
//   3. callback: GET /entrar/retorno?code&state with the pending cookie → 303 /perfil with the
//      session (timed). This includes the hub's token request to the provider and the provider's
//      answer. The provider runs in this process: its token endpoint is timed here, from the
//      request's headers to the end of its answer (diagnostics_channel http.server.*), and its
//      answer's id token carries the nonce of the sign-in it belongs to (the nonce is in the
//      authorization URL the start answered). The hub's own share of a callback is the callback's
//      time minus its own token request's time at the provider.
//   The hub's CPU (and PostgreSQL's, with --pg) is read around steps 1 and 3, whose requests only
//   the hub serves: CPU per start and per callback, whatever the provider's time.
// - password sign-ins for the same people: POST /entrar (login, password, callbackUrl; Origin the
//   hub's) → 303 /perfil with the session, timed, and the hub's CPU per sign-in.
//
// Every answer is checked (a refusal stops the bench). A warm-up of each kind (--warmup sign-ins
// at 4 at a time, at least one per person, so every upstream account is linked before timing, as
// on a school's second morning) is discarded. The provider's discovery and JWKS reads are counted
// over the whole bench: at most one discovery read per provider per hour and process (ADR 038).
// Writes nothing into the repository (the PGlite directory is under .tmp/bench).
import diagnosticsChannel from "node:diagnostics_channel";
import type { IncomingMessage, ServerResponse } from "node:http";
import { parseArgs } from "node:util";
import { resetEnvCache } from "@/lib/env";
import { sessionCookie } from "@/lib/server/auth/session-cookie";
import { hashPassword, verifyPassword } from "@/lib/server/crypto/password";
import { createDatabase, database, setDatabase } from "@/lib/server/db/database";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { resolveManagerScope } from "@/lib/server/management/resolve-manager-scope";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { pendingCookie } from "@/lib/server/upstream/pending-sign-in";
import { saveIdentityProvider } from "@/lib/server/upstream/save-identity-provider";
import { ZIdentityProviderFormSchema } from "@/lib/validations/upstream";
import { CookieJar, signInHeadless, startUpstreamProvider, UPSTREAM_ALLOWED_DOMAIN, type TUpstreamAccount } from "@/test/fixtures/upstream-provider";
import { prepareDatabase, startHub } from "../lib/hub";
import { FORM_HEADERS } from "../lib/hub-session";
import { cpuSeconds, loadAverage, machineLine, percentile, postgresCpuSeconds } from "../lib/load";

const { values } = parseArgs({
  options: {
    pg: { type: "boolean", default: false },
    people: { type: "string", default: "50" },
    signins: { type: "string", default: "200" },
    batch: { type: "string", default: "100" },
    warmup: { type: "string", default: "100" },
    reps: { type: "string", default: "2" },
    port: { type: "string", default: "3540" },
  },
});
const engine = values.pg ? "postgres" : "pglite";
const port = Number(values.port);
const peopleCount = Number(values.people);
const perRun = Number(values.signins);
const batchSize = Number(values.batch);
const LEVELS = [1, 4];
const PASSWORD = "bench-senha-forte-42";
const CLIENT = { id: "hub-bench-google", secret: "bench-google-client-secret" };

console.log(`bench/upstream/callback on ${engine}: ${machineLine()}`);
const loadAtStart = loadAverage();
const env = prepareDatabase("upstream", engine, port);
env.DEMO_TOOL = "1"; // the operator's explicit setting: http issuers on loopback (the harness)

// --- The provider, in this process, with its token endpoint timed -------------------------------

const students = Array.from({ length: peopleCount }, (_, i) => ({
  name: `Aluno Bench ${i + 1}`,
  email: `aluno${i + 1}@${UPSTREAM_ALLOWED_DOMAIN}`,
  sub: String(104_829_301_928_374_700_000n + BigInt(i)),
}));
const accounts: TUpstreamAccount[] = students.map((s) => ({
  login: s.email,
  claims: { sub: s.sub, email: s.email, email_verified: true, hd: UPSTREAM_ALLOWED_DOMAIN, name: s.name },
}));
const op = await startUpstreamProvider({
  preset: "google",
  clients: [{ client_id: CLIENT.id, client_secret: CLIENT.secret, redirect_uris: [`${env.HUB_BASE_URL}/entrar/retorno`] }],
  accounts,
});

/** The provider's time on each token request, by the nonce of the id token it answered with. */
const tokenMsByNonce = new Map<string, number>();
const tokenPath = new URL(op.url("/token")).pathname;
// The only HTTP server in this process is the provider's: its requests start and finish here.
diagnosticsChannel.subscribe("http.server.request.start", (message) => {
  const { request, response } = message as { request: IncomingMessage; response: ServerResponse };
  if (request.method !== "POST" || request.url?.split("?")[0] !== tokenPath) return;
  const started = performance.now();
  const chunks: Buffer[] = [];
  const end = response.end.bind(response) as (...args: unknown[]) => ServerResponse;
  // The answer's body, as koa writes it (one end() with the JSON), read on its way out.
  response.end = ((...args: unknown[]) => {
    const [chunk] = args;
    if (typeof chunk === "string" || Buffer.isBuffer(chunk)) chunks.push(Buffer.from(chunk));
    return end(...args);
  }) as ServerResponse["end"];
  response.once("finish", () => {
    const ms = performance.now() - started;
    try {
      const idToken = (JSON.parse(Buffer.concat(chunks).toString("utf8")) as { id_token?: string }).id_token;
      const nonce = idToken && (JSON.parse(Buffer.from(idToken.split(".")[1]!, "base64url").toString("utf8")) as { nonce?: string }).nonce;
      if (nonce) tokenMsByNonce.set(nonce, ms);
    } catch {
      // Not a token answer (an error): the callback that made it fails and stops the bench.
    }
  });
});

// --- The network, its people and its provider, through the hub's own services -------------------

process.env.HUB_SECRET = env.HUB_SECRET;
process.env.HUB_BASE_URL = env.HUB_BASE_URL;
process.env.DEMO_TOOL = "1";
resetEnvCache();
setDatabase(createDatabase(engine === "postgres" ? { url: env.DATABASE_URL } : { dataDir: `${env.HUB_DATA_DIR}/pglite` }));
let providerId: string;
try {
  const network = await createInstitution({ name: "Rede Bench Upstream", kind: "network" });
  const school = await createInstitution({ name: "Escola Bench Upstream", kind: "school", parentId: network.id });
  const manager = await createPerson({ name: "Gestora Bench", email: "gestora@bench.hub.br" });
  const managerProfile = await createProfile({ personId: manager.id, institutionId: network.id, role: "gestor" });
  // Four at a time: createPerson hashes each password (scrypt).
  await inPool(students, 4, async (s) => {
    const person = await createPerson({ name: s.name, email: s.email, password: PASSWORD });
    await createProfile({ personId: person.id, institutionId: school.id, role: "aluno" });
  });
  const scope = await resolveManagerScope({ personId: manager.id, profileId: managerProfile.id });
  const input = ZIdentityProviderFormSchema.parse({
    kind: "google", name: "", issuer: op.issuer, tenantId: "", clientId: CLIENT.id, clientSecret: CLIENT.secret,
    allowedDomains: UPSTREAM_ALLOWED_DOMAIN, linkRule: "email", enabled: "1",
  });
  providerId = (await saveIdentityProvider({ scope, institutionId: network.id, input })).id;
} finally {
  await database().close();
  setDatabase(undefined);
}
console.log(`network with ${peopleCount} students (${UPSTREAM_ALLOWED_DOMAIN}), Google provider ${providerId} at ${op.issuer}`);

// The password's hash alone, in this process before the hub starts (the hub's own function and
// parameters): the part of a password sign-in an upstream sign-in does not have.
const hashCpuMs: number[] = [];
{
  const stored = await hashPassword(PASSWORD);
  for (let i = 0; i < 11; i++) {
    const before = process.cpuUsage();
    if (!(await verifyPassword(PASSWORD, stored))) throw new Error("verifyPassword refused the password it hashed");
    const used = process.cpuUsage(before);
    if (i > 0) hashCpuMs.push((used.user + used.system) / 1000);
  }
}

const hub = await startHub(env);
const base = hub.base;
const pid = hub.server.pid!;
const withPostgres = engine === "postgres";
// The hub's cookie names for its base URL (HUB_BASE_URL is this bench's, set above).
const PENDING_COOKIE = pendingCookie().name;
const SESSION_COOKIE = sessionCookie().name;
/** One browser per student: the provider's session cookies (signed in at the provider after the first time). */
const jars = students.map(() => new CookieJar());

// --- Helpers ------------------------------------------------------------------------------------

async function inPool<T, R>(items: readonly T[], concurrency: number, run: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) out[i] = await run(items[i]!, i);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return out;
}

interface TCpu {
  hub: number;
  postgres?: number;
}

/** Runs `steps` and returns the hub's CPU (and PostgreSQL's) per step over it, in ms. */
async function withCpu<R>(steps: number, run: () => Promise<R>): Promise<{ result: R; cpu: TCpu; seconds: number }> {
  const before = { hub: cpuSeconds(pid), postgres: withPostgres ? postgresCpuSeconds() : 0 };
  const started = performance.now();
  const result = await run();
  const seconds = (performance.now() - started) / 1000;
  const cpu: TCpu = { hub: ((cpuSeconds(pid) - before.hub) * 1000) / steps };
  if (withPostgres) cpu.postgres = ((postgresCpuSeconds() - before.postgres) * 1000) / steps;
  return { result, cpu, seconds };
}

async function timed<R>(run: () => Promise<R>): Promise<{ value: R; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

/** The path a 303 sends to, or a thrown error naming what came back instead. */
function seeOtherPath(res: Response, what: string, expected: string): URL {
  const location = res.headers.get("location");
  const target = location ? new URL(location, base) : null;
  if (res.status !== 303 || !target || target.origin + target.pathname !== expected) {
    throw new Error(`${what}: expected 303 to ${expected}, got ${res.status} ${location ?? "(no Location)"}`);
  }
  return target;
}

const cookieValue = (res: Response, name: string) =>
  res.headers.getSetCookie().map((line) => line.split(";")[0]!).find((pair) => pair.startsWith(`${name}=`) && pair.length > name.length + 1);

interface TStarted {
  student: number;
  location: URL;
  cookie: string;
  nonce: string;
}

async function start(student: number): Promise<{ started: TStarted; ms: number }> {
  const { value: res, ms } = await timed(() => fetch(`${base}/entrar/com/${providerId}?callbackUrl=%2Fgaleria`, { redirect: "manual" }));
  const location = seeOtherPath(res, "start", op.url("/auth"));
  const cookie = cookieValue(res, PENDING_COOKIE);
  const nonce = location.searchParams.get("nonce");
  if (!cookie || !nonce) throw new Error("start: no pending cookie or no nonce in the authorization URL");
  return { started: { student, location, cookie, nonce }, ms };
}

async function callback(started: TStarted, callbackUrl: URL): Promise<{ ms: number; tokenMs: number }> {
  const { value: res, ms } = await timed(() => fetch(callbackUrl, { redirect: "manual", headers: { cookie: started.cookie } }));
  if (res.headers.get("location")?.includes("/entrar/recusado")) throw new Error(`callback refused: ${res.headers.get("location")}`);
  seeOtherPath(res, "callback", `${base}/perfil`);
  if (!cookieValue(res, SESSION_COOKIE)) throw new Error("callback: no session cookie");
  const tokenMs = tokenMsByNonce.get(started.nonce);
  if (tokenMs === undefined) throw new Error("callback: the provider saw no token request for this sign-in");
  tokenMsByNonce.delete(started.nonce);
  return { ms, tokenMs };
}

async function passwordSignIn(student: number): Promise<number> {
  const body = new URLSearchParams({ login: students[student]!.email, password: PASSWORD, callbackUrl: "/galeria" }).toString();
  const { value: res, ms } = await timed(() => fetch(`${base}/entrar`, { method: "POST", redirect: "manual", headers: { ...FORM_HEADERS, origin: base }, body }));
  seeOtherPath(res, "password sign-in", `${base}/perfil`);
  if (!cookieValue(res, SESSION_COOKIE)) throw new Error("password sign-in: no session cookie");
  return ms;
}

interface TUpstreamRun {
  start: number[];
  providerPages: number[];
  callback: number[];
  token: number[];
  hubShare: number[];
  wholeHub: number[];
  cpuStart: TCpu;
  cpuCallback: TCpu;
  callbacksPerSecond: number;
}

/** `count` upstream sign-ins, `concurrency` at a time, in batches: starts, provider pages, callbacks. */
async function upstreamRun(count: number, concurrency: number, offset: number): Promise<TUpstreamRun> {
  const run: TUpstreamRun = { start: [], providerPages: [], callback: [], token: [], hubShare: [], wholeHub: [], cpuStart: { hub: 0 }, cpuCallback: { hub: 0 }, callbacksPerSecond: 0 };
  const cpuSum = { start: { hub: 0, postgres: 0 }, callback: { hub: 0, postgres: 0 } };
  let callbackSeconds = 0;
  for (let done = 0; done < count; done += batchSize) {
    const who = Array.from({ length: Math.min(batchSize, count - done) }, (_, i) => (offset + done + i) % peopleCount);
    const starts = await withCpu(who.length, () => inPool(who, concurrency, (s) => start(s)));
    const returns = await inPool(starts.result, concurrency, async ({ started }) => {
      const { value, ms } = await timed(() => signInHeadless(started.location, students[started.student]!.email, jars[started.student]));
      run.providerPages.push(ms);
      return value;
    });
    const callbacks = await withCpu(who.length, () => inPool(starts.result, concurrency, ({ started }, i) => callback(started, returns[i]!)));
    callbackSeconds += callbacks.seconds;
    starts.result.forEach(({ ms }, i) => {
      const { ms: callbackMs, tokenMs } = callbacks.result[i]!;
      run.start.push(ms);
      run.callback.push(callbackMs);
      run.token.push(tokenMs);
      run.hubShare.push(callbackMs - tokenMs);
      run.wholeHub.push(ms + callbackMs - tokenMs);
    });
    for (const [key, phase] of [["start", starts], ["callback", callbacks]] as const) {
      cpuSum[key].hub += phase.cpu.hub * who.length;
      cpuSum[key].postgres += (phase.cpu.postgres ?? 0) * who.length;
    }
  }
  const per = (sum: { hub: number; postgres: number }): TCpu => ({ hub: sum.hub / count, ...(withPostgres ? { postgres: sum.postgres / count } : {}) });
  run.cpuStart = per(cpuSum.start);
  run.cpuCallback = per(cpuSum.callback);
  run.callbacksPerSecond = count / callbackSeconds;
  return run;
}

async function passwordRun(count: number, concurrency: number, offset: number): Promise<{ ms: number[]; cpu: TCpu; perSecond: number }> {
  const who = Array.from({ length: count }, (_, i) => (offset + i) % peopleCount);
  const { result, cpu, seconds } = await withCpu(count, () => inPool(who, concurrency, (s) => passwordSignIn(s)));
  return { ms: result, cpu, perSecond: count / seconds };
}

const fmt = (n: number, digits = 1) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });
function stats(samples: number[]): string {
  const sorted = [...samples].sort((a, b) => a - b);
  return `${sorted.length} | ${fmt(percentile(sorted, 0.5))} | ${fmt(percentile(sorted, 0.99))} | ${fmt(sorted.at(-1)!)}`;
}
const cpuCell = (cpu?: TCpu) => (cpu ? `${fmt(cpu.hub, 2)}${cpu.postgres !== undefined ? ` + ${fmt(cpu.postgres, 2)}` : ""}` : "");

// --- The runs -----------------------------------------------------------------------------------

let offset = 0;
const loadBefore = loadAverage();
try {
  const warmup = Math.max(Number(values.warmup), peopleCount);
  const w1 = await upstreamRun(warmup, 4, 0);
  const w2 = await passwordRun(warmup, 4, 0);
  console.log(`warm-up, discarded: ${w1.callback.length} upstream sign-ins (every student's account linked), ${w2.ms.length} password sign-ins; provider so far: ${op.counts.discovery} discovery, ${op.counts.jwks} JWKS reads`);
  const countsAfterWarmup = { ...op.counts };

  console.log(`
Method: the provider runs in the bench's process; its token endpoint is timed there, from the
request's headers to the end of its answer, and matched to its sign-in by the id token's nonce.
"callback − provider's token time" is the hub's own share of the callback (its database work, its
HTTP client, the id token's checks, the session). CPU ms per sign-in: the hub's process (+
PostgreSQL's, with --pg) over the starts, over the callbacks (the provider's CPU is not in it),
and over the password sign-ins.`);
  for (let rep = 1; rep <= Number(values.reps); rep++) {
    for (const concurrency of LEVELS) {
      const load = loadAverage();
      const up = await upstreamRun(perRun, concurrency, offset);
      const pw = await passwordRun(perRun, concurrency, offset);
      offset += perRun;
      console.log(`\nrepetition ${rep}/${values.reps}, ${concurrency} at a time (load average ${load} before, ${loadAverage()} after)\n`);
      console.log(`| step | n | p50 ms | p99 ms | max ms | CPU ms per sign-in, hub${withPostgres ? " + PostgreSQL" : ""} |`);
      console.log("|---|---:|---:|---:|---:|---:|");
      console.log(`| upstream start: GET /entrar/com/{id} → 303 | ${stats(up.start)} | ${cpuCell(up.cpuStart)} |`);
      console.log(`| (the provider's pages, not the hub) | ${stats(up.providerPages)} | |`);
      console.log(`| upstream callback: GET /entrar/retorno → 303 /perfil | ${stats(up.callback)} | ${cpuCell(up.cpuCallback)} |`);
      console.log(`| … of which the provider's token endpoint | ${stats(up.token)} | |`);
      console.log(`| **callback − provider's token time (the hub's own)** | ${stats(up.hubShare)} | |`);
      console.log(`| start + callback − token time (the hub's whole share) | ${stats(up.wholeHub)} | ${cpuCell({ hub: up.cpuStart.hub + up.cpuCallback.hub, ...(withPostgres ? { postgres: (up.cpuStart.postgres ?? 0) + (up.cpuCallback.postgres ?? 0) } : {}) })} |`);
      console.log(`| **password: POST /entrar → 303 /perfil** | ${stats(pw.ms)} | ${cpuCell(pw.cpu)} |`);
      console.log(`\ncallbacks ${fmt(up.callbacksPerSecond, 0)}/s, password sign-ins ${fmt(pw.perSecond, 0)}/s (${concurrency} at a time, client and provider on the same cores)`);
    }
  }
  const timedDiscovery = op.counts.discovery - countsAfterWarmup.discovery;
  const verdict = op.counts.discovery <= 1 ? "at most one, as ADR 038 says" : "MORE THAN ONE: the hub read discovery again within the hour";
  console.log(
    `\nprovider: ${op.counts.discovery} discovery reads over the whole bench (${timedDiscovery} during the timed runs): ${verdict}; ` +
      `${op.counts.jwks} JWKS reads; ${op.counts.token} token requests; ${op.counts.authorization} authorization requests`,
  );
  const hash = [...hashCpuMs].sort((a, b) => a - b);
  console.log(`the password's scrypt check alone (verifyPassword, this process, 10 runs): ${fmt(hash[5]!)} ms of CPU at the median, ${fmt(hash[0]!)}–${fmt(hash.at(-1)!)}`);
  console.log(`load average: ${loadAtStart} when the bench started, ${loadBefore} before the warm-up, ${loadAverage()} at the end`);
} finally {
  await hub.stop();
  await op.close();
}
