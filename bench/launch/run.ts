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
import { writeFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { prepareDatabase, spawnChild, startHub, stopChild, waitForAnswer } from "../lib/hub";
import { readBenchPeople, sessionCookieHeader } from "../lib/hub-session";
import { loadAverage, machineLine, printRepetition, printRss, RssSampler, runLoad, type TPairRow } from "../lib/load";

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
const secret = await readToolSecret(env, people.placementId);
const hub = await startHub(env);
const launchUrl = `${hub.base}/launch/${people.placementId}`;

/** The tool's shared secret, decrypted as the hub does, for the floor to sign with. */
async function readToolSecret(e: Record<string, string>, placementId: string): Promise<string> {
  const { createDatabase } = await import("@/lib/server/db/database");
  const { decryptSecret } = await import("@/lib/server/crypto/secret-box");
  const { LTI_SECRET_PURPOSE } = await import("@/lib/server/tools/lti-secret-purpose");
  const db = createDatabase(engine === "postgres" ? { url: e.DATABASE_URL } : { dataDir: `${e.HUB_DATA_DIR}/pglite` });
  try {
    const [row] = await db.sql.query<{ sharedSecretEnc: string }>(
      `SELECT t."sharedSecretEnc" FROM "Placement" p JOIN "Tool" t ON t.id = p."toolId" WHERE p.id = $1`, [placementId],
    );
    return decryptSecret(row!.sharedSecretEnc, LTI_SECRET_PURPOSE);
  } finally {
    await db.close();
  }
}

// One launch page of the hub, taken apart: the floor writes the same page around its own fields.
const sample = await (await fetch(launchUrl, { headers: { cookie } })).text();
const form = /<form id="lti-launch"[^>]*action="([^"]+)"[^>]*>/.exec(sample);
if (!form) throw new Error(`No launch form in the hub's answer:\n${sample.slice(0, 500)}`);
const unescape = (v: string) => v.replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
const inputs = [...sample.matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [unescape(m[1]!), unescape(m[2]!)] as const);
const params = Object.fromEntries(inputs.filter(([name]) => !name.startsWith("oauth_")));
const firstInput = sample.indexOf("<input");
const lastInput = sample.lastIndexOf(">", sample.indexOf("<h1>")) + 1;
const pageFile = path.join(env.HUB_DATA_DIR ?? path.resolve(".tmp", "bench"), "launch-page.json");
writeFileSync(pageFile, JSON.stringify({
  action: unescape(form[1]!), consumerKey: params.oauth_consumer_key ?? inputs.find(([n]) => n === "oauth_consumer_key")?.[1], secret,
  params, before: sample.slice(0, firstInput), after: sample.slice(lastInput),
}));
const floor = spawnChild(process.execPath, [path.join(import.meta.dirname, "floor.mjs")], {
  stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, PORT: String(floorPort), LAUNCH_PAGE: pageFile },
});
const floorUrl = `http://localhost:${floorPort}/launch`;
await waitForAnswer(floorUrl);
console.log(`page: ${sample.length} bytes, ${inputs.length} fields; placement ${people.placementId}`);

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
