// The first page against its own SQL, on a database the growth benchmark left (issue #24: "the
// first page within 1.5× its raw SQL"). Serves the hub on it, then samples in turns: the page over
// HTTP (gzip), the page's statement sent straight to PostgreSQL, and the parts of the hub's work
// called in this process (authorization, statement, writing), so a change to one part shows in
// the ratio within a minute instead of a 10-minute growth run.
//
//   DATABASE_URL=postgresql://postgres:postgres@localhost:5432/hub_growth_1000000 npx tsx bench/data-api/first-page.ts \
//     [--port 3310] [--samples 60] [--org <institution id: the largest network by default>]
import { randomBytes } from "node:crypto";
import { Agent } from "node:http";
import os from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import { createDatabase, setDatabase } from "@/lib/server/db/database";
import { authorizeDataAccess } from "@/lib/server/data-api/authorize-data-access";
import { buildEventPageQuery, queryEvents } from "@/lib/server/data-api/query-events";
import { readDataPage } from "@/lib/server/data-api/read-data-page";
import { ENTITY_NAMES, EVENT_KINDS, type TEntityName, type TEventKind } from "@/lib/validations/data-api";
import { percentile } from "../lib/load";
import { httpGetOk, sampleInTurns } from "./http";
import { linkDemoApp, loadNetwork } from "./load-network";
import { runToExit, startServer } from "./serve";

const { values } = parseArgs({ options: { port: { type: "string", default: "3310" }, samples: { type: "string", default: "60" }, org: { type: "string" } } });
const url = process.env.DATABASE_URL;
if (!url) {
  console.error("usage: DATABASE_URL=postgresql://…/hub_growth_1000000 npx tsx bench/data-api/first-page.ts [--port 3310] [--samples 60]");
  process.exit(2);
}
// Pseudonyms are derived from HUB_SECRET: any secret serves a throughput measurement, the same in both processes.
process.env.HUB_SECRET ??= randomBytes(32).toString("hex");
const KEY = "demo-api-key";
const agent = new Agent({ keepAlive: true });

async function main() {
  setDatabase(createDatabase({ url: url!, statementTimeoutMs: 0 }));
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  // The largest network (loadNetwork links the demo application to it), or the one named.
  const orgId = values.org ?? (await loadNetwork(pool)).id;
  if (values.org) await linkDemoApp(pool, orgId);
  const server = await startServer(values.port!, { ...process.env, NODE_ENV: "production" });
  const target = `http://127.0.0.1:${values.port}/manager/v1/data/${orgId}?limit=1000`;
  try {
    const grant = await authorizeDataAccess({ apiKey: KEY, orgId: orgId });
    const filters = {
      institutionIds: grant.subtree.map((i) => i.id),
      entities: [...ENTITY_NAMES] as TEntityName[],
      kinds: [...EVENT_KINDS] as TEventKind[],
      view: grant.view,
    };
    const { sql, params } = buildEventPageQuery({ filters, limit: 1000 });
    const times = await sampleInTurns(
      {
        http: () => httpGetOk(agent, target, KEY, "gzip, deflate"),
        "http, identity": () => httpGetOk(agent, target, KEY, "identity"),
        sql: () => pool.query(sql, params),
        "in process: readDataPage": () => readDataPage({ apiKey: KEY, orgId: orgId, searchParams: new URLSearchParams("limit=1000") }),
        "in process: authorize": () => authorizeDataAccess({ apiKey: KEY, orgId: orgId }),
        "in process: statement": () => queryEvents({ filters, limit: 1000 }),
      },
      Number(values.samples),
      10,
    );
    const sqlP50 = percentile(times.sql!, 0.5);
    console.log(`| part | p50 ms | p90 ms | / SQL p50 |`);
    console.log(`|---|---:|---:|---:|`);
    for (const [name, list] of Object.entries(times)) {
      console.log(`| ${name} | ${percentile(list, 0.5).toFixed(1)} | ${percentile(list, 0.9).toFixed(1)} | ${(percentile(list, 0.5) / sqlP50).toFixed(2)}× |`);
    }
    console.log(`\nload average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
  } finally {
    server.kill("SIGTERM");
    agent.destroy();
    await pool.end();
  }
}

runToExit(main);
