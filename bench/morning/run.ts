// bench/morning (issue #45, goal 3): the student's morning as one path. What a class does at the
// bell, replayed by simulated people against the served hub (production build, `node server.mjs`),
// and the same path against each step's floor or peer, in the same run. One command:
//
//   npx tsx bench/morning/run.ts                 # embedded database (PGlite)
//   DATABASE_URL=postgresql://postgres:postgres@localhost:5432/postgres npx tsx bench/morning/run.ts --pg
//   … [--people 96] [--people1 24] [--mix 5:4:1] [--reps 1] [--warmup 24] [--settle 10] [--port 3800]
//   BENCH_PROFILE_DIR=/tmp/prof …               # + a CPU profile of the hub (bench/lib/hub.ts)
//
// Needs the production build (HUB_NEXT_DIST_DIR picks another build folder, as for `npm start`).
// The path of each person (bench/morning/path.ts), in the mix --mix (password students : card
// students : teachers, 5:4:1 by default):
//   password student: sign-in page → password sign-in (one profile: straight on to the gallery) → gallery
//   card student:     card sign-in (GET /cracha/{token}, the QR code) → gallery
//   teacher:          sign-in page → password sign-in → picker page → picker choice → gallery
//   then everyone:    LTI 1.0 launch → LTI 1.3 login initiation → LTI 1.3 authorize → the partner
//                     application's OAuth authorize (the demo app) → token exchange → user info
// The class (bench/morning/setup.ts): the demo seed's students and teachers with the bench's
// password, every class's sign-in cards, a second profile for each teacher, and an LTI 1.3 copy of
// each school's demo tool.
//
// Targets, each loaded in turns with the same people, --people at 8 at a time, then --people1 one
// at a time (when each request's CPU is read, see replay.ts):
//   - hub: every step at the served hub;
//   - floors: each step at its floor: the existing ones (on PostgreSQL
//     bench/hot-routes/token-floor-server.ts and user-info-floor-server.ts, the latter with the
//     access log), and bench/morning/floor-server.ts for the other steps (the launches there read
//     the session and the placement as the hub must; bench/launch/floor.mjs, which reads neither,
//     stays bench/launch's floor). On PGlite the token and user-info floors (which speak `pg`) cannot run: there the
//     partner's two steps go to the peer instead, and the table says so;
//   - peer: node-oidc-provider with its store in the same kind of database (bench/oauth/peer.mjs),
//     for the token exchange and user info (its own codes and tokens, minted beforehand).
// Each person's answers are checked; a failed step ends that person's path and is reported.
// CPU is the target's processes' (hub: server.mjs; floors: the floor servers) and that of the PostgreSQL
// backends connected to the bench's databases (bench/morning/cpu.ts), read from /proc. Last, the
// CPU of the layout alone: a signed-in student's not-found page, what every signed-in page costs
// before its own content.
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { childEnv, freshDatabase, prepareDatabase, spawnChild, startHub, stopChild, waitForAnswer } from "../lib/hub";
import { DEMO_CLIENT, hubAccessToken, hubTokenBody, sessionCookieHeader } from "../lib/hub-session";
import { loadAverage, machineLine, RssSampler } from "../lib/load";
import { mintPeerAccessToken, mintPeerCodes, peerBody, startOidcPeer } from "../oauth/peer-process";
import { cpuReader } from "./cpu";
import { morningPath, partnerSteps, STEPS, type TPathTarget, type TStep, type TTimer } from "./path";
import { quantiles, replay, type TPass } from "./replay";
import { setUpClass, type TMorningPerson } from "./setup";

const { values } = parseArgs({
  options: {
    pg: { type: "boolean", default: false },
    people: { type: "string", default: "96" },
    people1: { type: "string", default: "24" },
    mix: { type: "string", default: "5:4:1" },
    reps: { type: "string", default: "1" },
    warmup: { type: "string", default: "24" },
    settle: { type: "string", default: "10" },
    port: { type: "string", default: "3800" },
  },
});
const engine = values.pg ? "postgres" : "pglite";
const port = Number(values.port);
const [mixPassword, mixCard, mixTeacher] = values.mix.split(":").map(Number) as [number, number, number];

console.log(`bench/morning on ${engine}, ${new Date().toISOString()}: ${machineLine()}`);
const loadAtStart = loadAverage();
const env = prepareDatabase("morning", engine, port);
const cls = await setUpClass(env, engine);
console.log(`class: ${cls.students.length} students (password and card), ${cls.teachers.length} teachers with two profiles, ${Object.keys(cls.placements).length} schools with an LTI 1.0 and an LTI 1.3 placement`);

// The floors' database: PostgreSQL's is the hub's; PGlite serves one process, so a copy.
const floorEnv: Record<string, string> = { ...env, PORT: String(port + 1) };
if (engine === "pglite") {
  floorEnv.HUB_DATA_DIR = `${env.HUB_DATA_DIR}-floor`;
  rmSync(floorEnv.HUB_DATA_DIR, { recursive: true, force: true });
  cpSync(env.HUB_DATA_DIR!, floorEnv.HUB_DATA_DIR, { recursive: true });
}
const anyStudent = cls.students[0]!;

const hub = await startHub(env);
const scratch = path.resolve(import.meta.dirname, "..", "..", ".tmp", "bench");
mkdirSync(scratch, { recursive: true });
const files = { login: path.join(scratch, "morning-login.html") };
const studentCookie = await sessionCookieHeader(env, anyStudent);
// bench/morning's own floors, with the hub's sign-in page as the hub writes it.
writeFileSync(files.login, await (await fetch(`${hub.base}/login`)).text());
const floorServer = spawnChild(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "floor-server.ts")], {
  stdio: ["ignore", "ignore", "inherit"],
  env: { ...childEnv(floorEnv), FLOOR_PORT: String(port + 1), FLOOR_LOGIN_PAGE: files.login },
});
const floorBase = `http://localhost:${port + 1}`;
// On PostgreSQL, the token exchange's and user info's floors (bench/hot-routes).
const hotFloors: { token?: ReturnType<typeof spawnChild>; userInfo?: ReturnType<typeof spawnChild> } = {};
if (engine === "postgres") {
  hotFloors.token = spawnChild(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "..", "hot-routes", "token-floor-server.ts")], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DATABASE_URL: env.DATABASE_URL, PORT: String(port + 3), FLOOR_ISSUER: hub.base, FLOOR_CLIENT_ID: DEMO_CLIENT.id, FLOOR_CLIENT_SECRET: DEMO_CLIENT.secret },
  });
  const token = await hubAccessToken(hub.base, studentCookie);
  const body = await (await fetch(`${hub.base}/users/v1/users/info`, { headers: { authorization: `Bearer ${token}` } })).text();
  const { jti } = JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { jti: string };
  hotFloors.userInfo = spawnChild(process.execPath, ["--import", "tsx", path.join(import.meta.dirname, "..", "hot-routes", "user-info-floor-server.ts")], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DATABASE_URL: env.DATABASE_URL, PORT: String(port + 4), FLOOR_JTI: jti, FLOOR_BODY: body, FLOOR_LOG: "1" },
  });
}
const peerStore: Record<string, string> = engine === "postgres"
  ? { PEER_STORE: "postgres", PEER_DATABASE_URL: freshDatabase("morning_peer", engine) }
  : { PEER_STORE: "pglite", PEER_PGLITE_DIR: freshDatabase("morning-peer", engine) };
const peer = await startOidcPeer(port + 5, peerStore);
await Promise.all([
  waitForAnswer(`${floorBase}/healthz`),
  ...(engine === "postgres" ? [waitForAnswer(`http://localhost:${port + 3}/`), waitForAnswer(`http://localhost:${port + 4}/`)] : []),
]);

// --- Targets ------------------------------------------------------------------------------------

const PEER_NAME = `peer (${engine === "postgres" ? "PostgreSQL" : "PGlite"})`;
/** The peer's codes and access tokens, minted before each pass that spends them (one each per person). */
const peerSupply = { codes: [] as string[], tokens: [] as string[] };
async function mintPeerSupply(n: number): Promise<void> {
  peerSupply.codes = await mintPeerCodes(peer.base, n, "peer-client_secret_post");
  peerSupply.tokens = await Promise.all(Array.from({ length: n }, () => mintPeerAccessToken(peer.base)));
}
const peerSide: Pick<TPathTarget, "token" | "userInfo"> = {
  token: () => ({ url: `${peer.base}/token`, body: peerBody(peerSupply.codes.pop()!, "post") }),
  userInfo: () => ({ url: `${peer.base}/me`, authorization: `Bearer ${peerSupply.tokens.pop()!}` }),
};

const hubTarget: TPathTarget = {
  name: "hub", pages: hub.base, lti10: hub.base,
  token: (code) => ({ url: `${hub.base}/lti/v1/oauth2/authorize`, body: hubTokenBody(hub.base, code) }),
  userInfo: (token) => ({ url: `${hub.base}/users/v1/users/info`, authorization: `Bearer ${token}` }),
};
const floorTarget: TPathTarget =
  engine === "postgres"
    ? {
        name: "floors", pages: floorBase, lti10: floorBase,
        token: (code) => ({ url: `http://localhost:${port + 3}/token`, body: hubTokenBody(hub.base, code) }),
        userInfo: (token) => ({ url: `http://localhost:${port + 4}/`, authorization: `Bearer ${token}` }),
      }
    : { name: "floors", pages: floorBase, lti10: floorBase, ...peerSide };

/** The floor or peer each step of the floors' path is measured against. */
const FLOOR_OF: Record<TStep, string> = {
  "sign-in page": "the hub's page bytes + providers' read",
  "password sign-in": "row + scrypt + usage + session",
  "card sign-in": "row + use/audit + usage + session",
  "picker page": "user + profiles + plain form",
  "picker choice": "the hub's chooseProfile + session",
  gallery: "the hub's reads + plain HTML",
  "LTI 1.0 launch": "the hub's readLaunch + launchOf, no layer",
  "LTI 1.3 login initiation": "the hub's readLaunch + launchOf, no layer",
  "LTI 1.3 authorize": "the hub's authorizeLti13, no router",
  "OAuth authorize": "user + client + rule + code row",
  "token exchange": engine === "postgres" ? "token-floor-server.ts" : `${PEER_NAME} (no floor on PGlite)`,
  "user info": engine === "postgres" ? "user-info-floor-server.ts, access log" : `${PEER_NAME} (no floor on PGlite)`,
};

const pids = {
  hub: [hub.server.pid!],
  floors: [floorServer.pid!, ...(hotFloors.token ? [hotFloors.token.pid!, hotFloors.userInfo!.pid!] : []), ...(engine === "pglite" ? [peer.child.pid!] : [])],
  peer: [peer.child.pid!],
};

/** The PostgreSQL databases whose backends work for each target (the hub's and floors' one database; the peer's own). */
const dbName = (url: string | undefined) => (url ? decodeURIComponent(new URL(url).pathname.slice(1)) : null);
const hubDb = dbName(env.DATABASE_URL);
const peerDb = dbName(peerStore.PEER_DATABASE_URL);
const databases = {
  hub: hubDb ? [hubDb] : [],
  floors: hubDb ? [hubDb] : [],
  peer: peerDb ? [peerDb] : [],
};

/** `n` people in the mix, interleaved (every slice of the list has the mix), spread over the class. */
function peopleOf(n: number): TMorningPerson[] {
  const counts = { password: mixPassword, card: mixCard, teacher: mixTeacher };
  const cycle = (["password", "card", "teacher"] as const)
    .flatMap((kind) => Array.from({ length: counts[kind] }, (_, j) => ({ kind, at: (j + 0.5) / counts[kind] })))
    .sort((a, b) => a.at - b.at)
    .map((o) => o.kind);
  const next = { password: 0, card: 0, teacher: 0 };
  return Array.from({ length: n }, (_, i) => {
    const kind = cycle[i % cycle.length]!;
    const k = next[kind]++;
    // Password students from one end of the class, card students from the other.
    const who = kind === "teacher" ? cls.teachers[k % cls.teachers.length]! : cls.students[kind === "card" ? cls.students.length - 1 - (k % cls.students.length) : k % cls.students.length]!;
    return { ...who, kind };
  });
}

const placementsOf = (person: TMorningPerson) => cls.placements[person.schoolId]!;
const pathOn = (target: TPathTarget) => (person: TMorningPerson, time: TTimer) => morningPath(person, placementsOf(person), target, hub.base, time);
const usesPeer = (target: TPathTarget) => target === floorTarget && engine === "pglite";

async function pass(who: "hub" | "floors" | "peer", conns: number, n: number): Promise<TPass> {
  const people = peopleOf(n);
  const perStepCpu = conns === 1 ? { settleMs: Number(values.settle) } : undefined;
  const base = { conns, people, perStepCpu };
  if (who === "peer") {
    await mintPeerSupply(n);
    return replay({ ...base, target: PEER_NAME, pids: pids.peer, databases: databases.peer, path: (_person, time) => partnerSteps(peerSide, "", time) });
  }
  const target = who === "hub" ? hubTarget : floorTarget;
  if (usesPeer(target)) await mintPeerSupply(n);
  return replay({ ...base, target: target.name, pids: pids[who], databases: databases[who], path: pathOn(target) });
}

// --- Report -------------------------------------------------------------------------------------

const fmt = (n: number, d = 0) => (Number.isFinite(n) ? n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d }) : "");
const ratio = (a: number, b: number) => (Number.isFinite(a / b) && b > 0 ? `${fmt(a / b, 2)}×` : "");
const flag = (a: number, b: number) => (b > 0 && a / b > 1.5 ? `**${ratio(a, b)}**` : ratio(a, b));

/** CPU ms per person over the pass: one at a time, the requests' own (read around each); else the pass's. */
function cpuPerPerson(p: TPass): { server: number; postgres: number } {
  const done = p.people - p.failures.length;
  if (p.conns === 1) {
    let server = 0;
    let postgres = 0;
    for (const s of p.steps.values()) {
      server += s.cpu?.server ?? 0;
      postgres += s.cpu?.postgres ?? 0;
    }
    return { server: server / done, postgres: postgres / done };
  }
  return { server: p.cpuMs.server / done, postgres: p.cpuMs.postgres / done };
}

function passRow(p: TPass): string {
  const done = p.people - p.failures.length;
  const seconds = p.conns === 1 ? p.activeSeconds : p.wallSeconds;
  const cpu = cpuPerPerson(p);
  const cpuMs = cpu.server + cpu.postgres;
  const coresBusy = (cpuMs * done) / 1000 / seconds;
  const pgCell = engine === "postgres" ? ` + ${fmt(cpu.postgres, 1)}` : "";
  return `| ${p.conns} | ${p.target} | ${p.people} | ${p.failures.length} | ${fmt(seconds, 1)} | **${fmt(done / seconds, 1)}** | ${fmt(cpu.server, 1)}${pgCell} | ${fmt(coresBusy, 2)} | **${fmt(1000 / cpuMs, 1)}** | ${p.load} |`;
}

function printPasses(passes: TPass[]): void {
  console.log(`\n| at a time | target | people | failed | s | people/s | CPU ms per person (server${engine === "postgres" ? " + PostgreSQL" : ""}) | cores busy | people/s per core | load average after |`);
  console.log("|---:|---|---:|---:|---:|---:|---:|---:|---:|---|");
  for (const p of passes) console.log(passRow(p));
  for (const p of passes) for (const f of p.failures.slice(0, 5)) console.log(`  ${p.target} (${p.conns}): ${f}`);
}

function printSteps(hubPass: TPass, floorPass: TPass, peerPass: TPass): void {
  const perStep = hubPass.conns === 1;
  const cpuOf = (p: TPass, step: TStep) => {
    const s = p.steps.get(step);
    return s?.cpu && s.latencies.length ? (s.cpu.server + s.cpu.postgres) / s.latencies.length : NaN;
  };
  const cpuCell = (p: TPass, step: TStep) => {
    const s = p.steps.get(step);
    if (!s?.cpu || !s.latencies.length) return "";
    return engine === "postgres" ? `${fmt(s.cpu.server / s.latencies.length, 2)} + ${fmt(s.cpu.postgres / s.latencies.length, 2)}` : fmt(s.cpu.server / s.latencies.length, 2);
  };
  const q = (p: TPass, step: TStep) => quantiles(p.steps.get(step)?.latencies ?? []);
  const cpuHead = perStep ? ` CPU ms (server${engine === "postgres" ? " + PG" : ""}) |` : "";
  console.log(`\n${hubPass.conns} at a time, per step (ms):\n`);
  console.log(`| step | n | hub p50 | hub p99 |${perStep ? " hub" + cpuHead : ""} floor or peer | p50 | p99 |${perStep ? cpuHead : ""} hub ÷ floor p50 |${perStep ? " hub ÷ floor CPU |" : ""} ${PEER_NAME} p50 / p99 |${perStep ? " peer CPU ms |" : ""} hub ÷ peer p50 |${perStep ? " hub ÷ peer CPU |" : ""}`);
  console.log(`|---|---:|---:|---:|${perStep ? "---:|" : ""}---|---:|---:|${perStep ? "---:|" : ""}---:|${perStep ? "---:|" : ""}---:|${perStep ? "---:|" : ""}---:|${perStep ? "---:|" : ""}`);
  for (const step of STEPS) {
    const hubStats = hubPass.steps.get(step);
    if (!hubStats) continue;
    const h = q(hubPass, step);
    const f = q(floorPass, step);
    const hasPeer = peerPass.steps.has(step);
    const pq = q(peerPass, step);
    const cells = [
      step, String(hubStats.latencies.length), fmt(h.p50, 1), fmt(h.p99, 1), ...(perStep ? [cpuCell(hubPass, step)] : []),
      FLOOR_OF[step], fmt(f.p50, 1), fmt(f.p99, 1), ...(perStep ? [cpuCell(floorPass, step)] : []),
      flag(h.p50, f.p50), ...(perStep ? [flag(cpuOf(hubPass, step), cpuOf(floorPass, step))] : []),
      hasPeer ? `${fmt(pq.p50, 1)} / ${fmt(pq.p99, 1)}` : "", ...(perStep ? [hasPeer ? cpuCell(peerPass, step) : ""] : []),
      hasPeer ? flag(h.p50, pq.p50) : "", ...(perStep ? [hasPeer ? flag(cpuOf(hubPass, step), cpuOf(peerPass, step)) : ""] : []),
    ];
    console.log(`| ${cells.join(" | ")} |`);
  }
}

/** The steps of each kind of person's path (path.ts). */
const TAIL: TStep[] = ["gallery", "LTI 1.0 launch", "LTI 1.3 login initiation", "LTI 1.3 authorize", "OAuth authorize", "token exchange", "user info"];
const PATH_STEPS: Record<TMorningPerson["kind"], TStep[]> = {
  password: ["sign-in page", "password sign-in", ...TAIL],
  card: ["card sign-in", ...TAIL],
  teacher: ["sign-in page", "password sign-in", "picker page", "picker choice", ...TAIL],
};

/**
 * One at a time: each kind of path's CPU, as the sum of its steps' mean CPU (so the mix can be
 * changed on paper), and the mix's.
 */
function printPathCpu(hubPass: TPass, floorPass: TPass): void {
  const mean = (p: TPass, step: TStep) => {
    const s = p.steps.get(step);
    return s?.cpu && s.latencies.length ? (s.cpu.server + s.cpu.postgres) / s.latencies.length : NaN;
  };
  const sum = (p: TPass, steps: TStep[]) => steps.reduce((total, step) => total + mean(p, step), 0);
  const weights = { password: mixPassword, card: mixCard, teacher: mixTeacher };
  const total = mixPassword + mixCard + mixTeacher;
  console.log(`
CPU ms per path, one at a time (sum of its steps' means; server${engine === "postgres" ? " + PostgreSQL" : ""}):
`);
  console.log("| path | hub | floors | hub ÷ floors |\n|---|---:|---:|---:|");
  let hubMix = 0;
  let floorMix = 0;
  for (const kind of ["password", "card", "teacher"] as const) {
    const h = sum(hubPass, PATH_STEPS[kind]);
    const f = sum(floorPass, PATH_STEPS[kind]);
    hubMix += (h * weights[kind]) / total;
    floorMix += (f * weights[kind]) / total;
    console.log(`| ${kind === "password" ? "password student" : kind === "card" ? "card student" : "teacher (picker)"} | ${fmt(h, 1)} | ${fmt(f, 1)} | ${ratio(h, f)} |`);
  }
  console.log(`| the mix ${values.mix} | ${fmt(hubMix, 1)} | ${fmt(floorMix, 1)} | ${ratio(hubMix, floorMix)} |`);
}

/**
 * What a signed-in page costs the hub before its own content: the not-found page of a signed-in
 * student (the root layout — the header with the person's profiles, the footer — around a short
 * message), one at a time, server and PostgreSQL CPU per page. The picker page and the gallery are
 * this layout plus their content; their floors write neither.
 */
async function printLayoutAlone(pages = 200): Promise<void> {
  const get = async () => {
    const response = await fetch(`${hub.base}/nao-existe-na-manha`, { headers: { cookie: studentCookie, "accept-encoding": "br" }, redirect: "manual" });
    const text = await response.text();
    if (response.status !== 404 || !text.includes("/meus-dados")) throw new Error(`layout alone: ${response.status}, not a signed-in not-found page`);
  };
  for (let i = 0; i < 50; i++) await get();
  const reader = cpuReader(pids.hub, databases.hub);
  const before = reader.read();
  for (let i = 0; i < pages; i++) await get();
  const used = reader.delta(before, reader.read());
  console.log(`\nThe layout alone (a signed-in student's not-found page, ${pages} one at a time): ${fmt(used.server / pages, 2)} ms of server CPU + ${fmt(used.postgres / pages, 2)} ms of PostgreSQL per page.`);
}

// --- Run ----------------------------------------------------------------------------------------

const rss = new RssSampler(hub.server.pid!);
const all: TPass[] = [];
try {
  const warmup = Number(values.warmup);
  if (warmup > 0) {
    const w = [await pass("hub", 8, warmup), await pass("floors", 8, warmup), await pass("peer", 8, warmup)];
    console.log(`warm-up, not timed: ${w.map((p) => `${p.target} ${p.people - p.failures.length}/${p.people}`).join(", ")}${w.flatMap((p) => p.failures).slice(0, 3).map((f) => `\n  ${f}`).join("")}`);
  }
  for (let rep = 1; rep <= Number(values.reps); rep++) {
    console.log(`\n## repetition ${rep}/${values.reps} (load average ${loadAverage()}, hub RSS ${rss.sample()} MB)`);
    const passes: TPass[] = [];
    for (const [conns, n] of [[8, Number(values.people)], [1, Number(values.people1)]] as const) {
      const hubPass = await pass("hub", conns, n);
      const floorPass = await pass("floors", conns, n);
      const peerPass = await pass("peer", conns, n);
      passes.push(hubPass, floorPass, peerPass);
      printSteps(hubPass, floorPass, peerPass);
      if (conns === 1) printPathCpu(hubPass, floorPass);
    }
    printPasses(passes);
    all.push(...passes);
  }
  await printLayoutAlone();
} finally {
  const memory = rss.stop();
  console.log(`\n${new Date().toISOString()}: mix (password : card : teacher) ${values.mix}; hub RSS ${memory.first} → ${memory.max} MB at most; load average at the start ${loadAtStart}, at the end ${loadAverage()}`);
  await Promise.all([hub.stop(), stopChild(floorServer), stopChild(peer.child), ...Object.values(hotFloors).map((c) => stopChild(c))]);
}
