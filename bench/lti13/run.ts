// bench/lti13: the LTI 1.3 launch (issue #21) beside the LTI 1.0 launch page, on one hub.
// An LTI 1.3 launch is two hub requests: the launch page (GET /launch/{placementId}: the login
// initiation form) and the authorization endpoint (/lti13/authorize: checks, single-use nonce,
// RS256 id_token form). The tool's own redirect in between costs the hub nothing. One command:
//
//   npx tsx bench/lti13/run.ts                 # embedded database (PGlite)
//   DATABASE_URL=postgresql://… npx tsx bench/lti13/run.ts --pg
//
// Needs the production build. The demo student's placement launches with LTI 1.0; a copy of its
// tool registered for LTI 1.3 is placed beside it in the bench's own database.
import { parseArgs } from "node:util";
import { prepareDatabase, startHub } from "../lib/hub";
import { readBenchPeople, sessionCookieHeader } from "../lib/hub-session";
import { loadAverage, machineLine, RssSampler, printRss, runLoad, type TLoadResult } from "../lib/load";
import { addLti13Copy, authenticationBody, formFields } from "./tool";

const { values } = parseArgs({
  options: {
    pg: { type: "boolean", default: false },
    seconds: { type: "string", default: "6" },
    authorizations: { type: "string", default: "3000" },
    port: { type: "string", default: "3520" },
  },
});
const engine = values.pg ? "postgres" : "pglite";
const port = Number(values.port);

console.log(`bench/lti13 on ${engine}: ${machineLine()}`);
const env = prepareDatabase("lti13", engine, port);
const people = await readBenchPeople(env, engine);
const cookie = await sessionCookieHeader(env, people.student);
const lti13PlacementId = await addLti13CopyIn(env, people.placementId);
const hub = await startHub(env);

/** A copy of the placement's tool with an LTI 1.3 registration, placed at the same school (bench/lti13/tool.ts). */
async function addLti13CopyIn(e: Record<string, string>, placementId: string): Promise<string> {
  const { createDatabase } = await import("@/lib/server/db/database");
  const db = createDatabase(engine === "postgres" ? { url: e.DATABASE_URL } : { dataDir: `${e.HUB_DATA_DIR}/pglite` });
  try {
    return await addLti13Copy(db, e.HUB_BASE_URL!, placementId);
  } finally {
    await db.close();
  }
}

/** `n` authentication requests as the reference tool sends them, each with its own nonce. */
async function authenticationBodies(n: number): Promise<string[]> {
  const page = await (await fetch(`${hub.base}/launch/${lti13PlacementId}`, { headers: { cookie } })).text();
  const fields = formFields(page);
  const run = Math.random().toString(36).slice(2);
  return Array.from({ length: n }, (_, i) => authenticationBody(hub.base, fields, `s${i}`, `${run}-${i}`));
}

const rss = new RssSampler(hub.server.pid!);
const rows: Array<{ connections: number; lti10: TLoadResult; initiation: TLoadResult; authorize: TLoadResult }> = [];
try {
  const check = await fetch(`${hub.base}/lti13/authorize`, { method: "POST", headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, body: (await authenticationBodies(1))[0] });
  const checkText = await check.text();
  if (check.status !== 200 || !checkText.includes('name="id_token"')) throw new Error(`authorize answered ${check.status}:\n${checkText.slice(0, 400)}`);
  for (const connections of [1, 8]) {
    console.log(`\n${connections} connection(s), load average ${loadAverage()}`);
    const lti10 = await runLoad({ label: "LTI 1.0 launch page", url: `${hub.base}/launch/${people.placementId}`, connections, headers: { cookie }, durationSeconds: Number(values.seconds) });
    const initiation = await runLoad({ label: "LTI 1.3 login initiation page", url: `${hub.base}/launch/${lti13PlacementId}`, connections, headers: { cookie }, durationSeconds: Number(values.seconds) });
    const authorize = await runLoad({
      label: "LTI 1.3 /lti13/authorize (id_token form)", url: `${hub.base}/lti13/authorize`, method: "POST", connections,
      headers: { cookie, "content-type": "application/x-www-form-urlencoded" }, bodies: await authenticationBodies(Number(values.authorizations)),
    });
    rows.push({ connections, lti10, initiation, authorize });
  }
} finally {
  printRss(rss);
  await hub.stop();
}

const fmt = (n: number, d = 0) => n.toLocaleString("en-US", { maximumFractionDigits: d, minimumFractionDigits: d });
console.log("\n| conns | LTI 1.0 launch page req/s (p50 ms) | 1.3 login initiation req/s (p50) | 1.3 authorize req/s (p50) | LTI 1.3 launches/s (both steps) | errors |");
console.log("|---:|---:|---:|---:|---:|---:|");
for (const r of rows) {
  // Both steps on one hub: a launch costs the time of one of each.
  const launches = 1 / (1 / r.initiation.rps + 1 / r.authorize.rps);
  const errors = [r.lti10, r.initiation, r.authorize].map((x) => x.errors + x.unexpected).join(" / ");
  console.log(`| ${r.connections} | ${fmt(r.lti10.rps)} (${fmt(r.lti10.p50, 1)}) | ${fmt(r.initiation.rps)} (${fmt(r.initiation.p50, 1)}) | ${fmt(r.authorize.rps)} (${fmt(r.authorize.p50, 1)}) | **${fmt(launches)}** | ${errors} |`);
  for (const x of [r.lti10, r.initiation, r.authorize]) if (x.unexpected) console.log(`  ${x.label}: unexpected ${JSON.stringify(x.statuses)}`);
}
console.log(`load average at the end ${loadAverage()}`);
