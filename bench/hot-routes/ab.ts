// Interleaved A/B of two builds of the hub on one PostgreSQL database: A is a git revision built in
// its own worktree (--base, HEAD by default), B is this checkout as it is. Both servers run at once
// and are loaded in turns on one hot route, so that both meet the same machine minute by minute;
// each turn prints each server's answers/s and CPU per answer (the server's, and PostgreSQL's).
// A change that cannot be seen in whole-bench runs, whose figures move with the machine by more
// than the change, shows here turn by turn (docs/performance.md). One command:
//
//   DATABASE_URL=postgresql://… npx tsx bench/hot-routes/ab.ts --route launch|token|userinfo [--base REV]
//
// Options: --turns 6, --seconds 5 (launch and user info; token turns use --codes codes each),
// --connections 8, --warmup 10 (seconds of each server, untimed, before the first turn).
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { childEnv, prepareDatabase, startHub, type TBenchHub } from "../lib/hub";
import { FORM_HEADERS, hubAccessToken, hubTokenBody, mintHubCodes, readBenchPeople, sessionCookieHeader } from "../lib/hub-session";
import { loadAverage, machineLine, runLoad, type TLoadResult } from "../lib/load";

const ROUTES = ["launch", "token", "userinfo"] as const;
type TRoute = (typeof ROUTES)[number];

const { values } = parseArgs({
  options: {
    route: { type: "string", default: "launch" },
    base: { type: "string", default: "HEAD" },
    turns: { type: "string", default: "6" },
    seconds: { type: "string", default: "5" },
    codes: { type: "string", default: "3000" },
    connections: { type: "string", default: "8" },
    warmup: { type: "string", default: "10" },
    port: { type: "string", default: "3420" },
  },
});
const route = values.route as TRoute;
if (!ROUTES.includes(route)) throw new Error(`--route must be one of ${ROUTES.join(", ")}`);
if (!process.env.DATABASE_URL) throw new Error("The A/B runs on PostgreSQL (both servers share one database): set DATABASE_URL=postgresql://…");
const connections = Number(values.connections);
const seconds = Number(values.seconds);
const root = path.resolve(import.meta.dirname, "..", "..");

function git(...args: string[]): string {
  return execFileSync("git", args, { cwd: root, encoding: "utf8" }).trim();
}

/** Builds `rev` in .tmp/ab/<sha>, once: a detached worktree sharing this checkout's installed packages. */
function buildRevision(rev: string): { sha: string; dir: string } {
  const sha = git("rev-parse", "--verify", `${rev}^{commit}`);
  if (git("diff", "--name-only", sha, "--", "prisma/migrations")) {
    throw new Error(`${rev} has other migrations than this checkout: both builds must run on one database`);
  }
  const dir = path.join(root, ".tmp", "ab", sha);
  if (!existsSync(path.join(dir, "package.json"))) {
    rmSync(dir, { recursive: true, force: true });
    git("worktree", "prune");
    git("worktree", "add", "--detach", dir, sha);
    // Hard links: no copy of the packages' bytes. Their build stamps live under node_modules/.cache,
    // which is removed so that the worktree writes its own instead of through the links.
    execFileSync("cp", ["-al", path.join(root, "node_modules"), path.join(dir, "node_modules")]);
    rmSync(path.join(dir, "node_modules", ".cache"), { recursive: true, force: true });
  }
  console.log(`▸ A: ${rev} (${sha.slice(0, 10)}) in ${path.relative(root, dir)}`);
  build(dir);
  return { sha, dir };
}

function build(dir: string): void {
  const result = spawnSync(process.execPath, ["-e", "import('./scripts/lib/steps.mjs').then((m) => { m.ensureGenerated(); m.ensureBuilt(); })"], {
    cwd: dir, stdio: "inherit", env: childEnv({}), // building needs no database
  });
  if (result.status !== 0) throw new Error(`building ${dir} failed`);
}

const a = buildRevision(values.base);
console.log("▸ B: this checkout");
build(root);

const port = Number(values.port);
const env = prepareDatabase("ab", "postgres", port);
const people = await readBenchPeople(env, "postgres");
const cookie = await sessionCookieHeader(env, people.student);
// The demo was seeded for A's address: B mints codes with that redirect URI too.
const seededBase = env.HUB_BASE_URL!;
const servers: Array<{ name: "A" | "B"; hub: TBenchHub }> = [
  { name: "A", hub: await startHub(env, a.dir) },
  { name: "B", hub: await startHub({ ...env, PORT: String(port + 1), HUB_BASE_URL: `http://localhost:${port + 1}` }) },
];

/** One load of the route on `hub`; token loads first mint their codes, untimed. */
async function load(hub: TBenchHub, durationSeconds: number, codes: number): Promise<TLoadResult> {
  const cpuOf = { pid: hub.server.pid!, postgres: true };
  if (route === "token") {
    const minted = await mintHubCodes(seededBase, cookie, codes, hub.base);
    return runLoad({
      label: "token", url: `${hub.base}/lti/v1/oauth2/authorize`, method: "POST", connections, headers: FORM_HEADERS,
      bodies: minted.map((code) => hubTokenBody(seededBase, code)), cpuOf,
    });
  }
  if (route === "userinfo") {
    const token = await hubAccessToken(seededBase, cookie, hub.base);
    return runLoad({ label: "user info", url: `${hub.base}/users/v1/users/info`, connections, headers: { authorization: `Bearer ${token}` }, durationSeconds, cpuOf });
  }
  return runLoad({ label: "launch", url: `${hub.base}/launch/${people.placementId}`, connections, headers: { cookie }, durationSeconds, cpuOf });
}

console.log(`bench/hot-routes/ab --route ${route}: ${machineLine()}`);
const warmup = Number(values.warmup);
if (warmup > 0) for (const { hub } of servers) await load(hub, warmup, 1500);
console.log(`warm-up done (${warmup} s or 1,500 exchanges each, untimed)`);

const turns: Array<Record<"A" | "B", TLoadResult>> = [];
console.log(`\n| turn | A ${route === "launch" ? "pages" : "req"}/s | B | B ÷ A | A CPU ms (server + PostgreSQL) | B | B ÷ A, server | unexpected A / B | load |`);
console.log("|---:|---:|---:|---:|---|---|---:|---|---|");
for (let turn = 1; turn <= Number(values.turns); turn++) {
  const results = {} as Record<"A" | "B", TLoadResult>;
  for (const { name, hub } of servers) results[name] = await load(hub, seconds, Number(values.codes));
  turns.push(results);
  const cpu = (r: TLoadResult) => `${r.cpuMs!.server.toFixed(3)} + ${r.cpuMs!.postgres!.toFixed(3)}`;
  const { A, B } = results;
  console.log(
    `| ${turn} | ${A.rps.toFixed(0)} | ${B.rps.toFixed(0)} | ${(B.rps / A.rps).toFixed(2)} | ${cpu(A)} | ${cpu(B)} | ` +
      `${(B.cpuMs!.server / A.cpuMs!.server).toFixed(2)} | ${A.unexpected} / ${B.unexpected} | ${loadAverage()} |`,
  );
}
const ahead = turns.filter((t) => t.B.rps > t.A.rps).length;
const leaner = turns.filter((t) => t.B.cpuMs!.server < t.A.cpuMs!.server).length;
console.log(`\nB answered more per second in ${ahead} of ${turns.length} turns, and spent less server CPU per answer in ${leaner} of ${turns.length}.`);
const unexpected = turns.reduce((n, t) => n + t.A.unexpected + t.B.unexpected, 0);
for (const { hub } of servers) await hub.stop();
if (unexpected > 0) {
  console.error(`${unexpected} answers had another status than expected: the comparison is not valid.`);
  process.exitCode = 1;
}
