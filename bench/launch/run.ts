// bench/launch: the hub's launch page (GET /launch/{placementId}: session, placement, sharing
// rule, pairwise id, signed form, access log) beside a floor that signs the same fields with
// `oauth-1.0a` and writes the same page from a bare node:http server (docs/performance.md,
// "Launch page"). One command:
//
//   npx tsx bench/launch/run.ts                 # embedded database (PGlite)
//   DATABASE_URL=postgresql://… npx tsx bench/launch/run.ts --pg
//
// Needs the production build. Interleaved hub/floor runs at 8 connections (and 1), RSS sampled,
// after an untimed warm-up of each (--warmup seconds, 0 for none): the figures are those of a
// server that has been answering for a while, as in a school's morning, not of its first
// thousand requests, which V8 runs before it has optimized them.
import path from "node:path";
import { parseArgs } from "node:util";
import { prepareDatabase, spawnChild, startHub, stopChild, waitForAnswer } from "../lib/hub";
import { readBenchPeople, sessionCookieHeader } from "../lib/hub-session";
import { loadAverage, machineLine, printRepetition, printRss, RssSampler, runLoad, type TPairRow } from "../lib/load";
import { readToolSecret, writeLaunchFloorPage } from "./floor-page";

const { values } = parseArgs({
  options: {
    pg: { type: "boolean", default: false },
    reps: { type: "string", default: "3" },
    seconds: { type: "string", default: "6" },
    warmup: { type: "string", default: "10" },
    port: { type: "string", default: "3402" },
  },
});
const engine = values.pg ? "postgres" : "pglite";
const port = Number(values.port);
const floorPort = port + 1;
const seconds = Number(values.seconds);

console.log(`bench/launch on ${engine}: ${machineLine()}`);
const env = prepareDatabase("launch", engine, port);
const people = await readBenchPeople(env, engine);
const cookie = await sessionCookieHeader(env, people.student); // also sets the bench's HUB_SECRET
const secret = await readToolSecret(env, engine, people.placementId);
const hub = await startHub(env);
const launchUrl = `${hub.base}/launch/${people.placementId}`;

// One launch page of the hub, taken apart: the floor writes the same page around its own fields.
const sample = await (await fetch(launchUrl, { headers: { cookie } })).text();
const pageFile = path.join(env.HUB_DATA_DIR ?? path.resolve(".tmp", "bench"), "launch-page.json");
const fieldCount = writeLaunchFloorPage(sample, secret, pageFile);
const floor = spawnChild(process.execPath, [path.join(import.meta.dirname, "floor.mjs")], {
  stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, PORT: String(floorPort), LAUNCH_PAGE: pageFile },
});
const floorUrl = `http://localhost:${floorPort}/launch`;
await waitForAnswer(floorUrl);
console.log(`page: ${sample.length} bytes, ${fieldCount} fields; placement ${people.placementId}`);

const rss = new RssSampler(hub.server.pid!);
const rows: TPairRow[] = [];
try {
  const warmup = Number(values.warmup);
  if (warmup > 0) {
    const h = await runLoad({ label: "hub warm-up", url: launchUrl, connections: 8, headers: { cookie }, durationSeconds: warmup });
    const f = await runLoad({ label: "floor warm-up", url: floorUrl, connections: 8, durationSeconds: warmup });
    console.log(`warm-up, not timed: ${h.requests} hub pages, ${f.requests} floor pages in ${warmup} s each (${h.unexpected + f.unexpected} unexpected answers)`);
  }
  for (let rep = 1; rep <= Number(values.reps); rep++) {
    console.log(`\nrepetition ${rep}/${values.reps} (load average ${loadAverage()}, hub RSS ${rss.sample()} MB)`);
    const repRows: typeof rows = [];
    for (const connections of [1, 8]) {
      const h = await runLoad({ label: "hub launch", url: launchUrl, connections, headers: { cookie }, durationSeconds: seconds, cpuOf: { pid: hub.server.pid!, postgres: engine === "postgres" } });
      const f = await runLoad({ label: "floor launch", url: floorUrl, connections, durationSeconds: seconds, cpuOf: { pid: floor.pid! } });
      repRows.push({ path: "launch page (hub) / oauth-1.0a floor", hub: h, peer: f });
    }
    printRepetition(repRows);
    rows.push(...repRows);
  }
} finally {
  printRss(rss);
  await stopChild(floor);
  await hub.stop();
}
