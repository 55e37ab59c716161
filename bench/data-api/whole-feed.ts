// The contract's call with neither limit nor cursor on a large network: every event comes back,
// and the hub's memory does not grow with the answer. Starts `node server.mjs` itself (production
// build, same env), samples its RSS from /proc every 20 ms while a client streams the answer.
//
//   DATABASE_URL=postgresql://… HUB_SECRET=… npx tsx bench/data-api/whole-feed.ts [--port 3291]
import { Agent } from "node:http";
import os from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import { loadNetwork } from "./load-network";
import { startServer, streamEvents, walkFeed } from "./serve";

const { values } = parseArgs({ options: { port: { type: "string", default: "3291" }, key: { type: "string", default: "demo-api-key" } } });
const url = process.env.DATABASE_URL;
if (!url || !process.env.HUB_SECRET) {
  console.error("usage: DATABASE_URL=postgresql://… HUB_SECRET=… npx tsx bench/data-api/whole-feed.ts [--port 3291]");
  process.exit(2);
}
const base = `http://127.0.0.1:${values.port}`;
const agent = new Agent({ keepAlive: true });

async function main() {
  const pool = new pg.Pool({ connectionString: url });
  const network = await loadNetwork(pool);
  const { rows: [count] } = await pool.query<{ n: string }>(`SELECT count(*)::text AS n FROM "ChangeEvent" WHERE "institutionId" = ANY($1::uuid[])`, [[network.id, ...network.schools]]);
  await pool.end();

  const server = await startServer(values.port!, process.env);
  try {
    // Warm up (first requests load the route's code), then settle: that is the idle RSS.
    for (let i = 0; i < 5; i++) await streamEvents(agent, `${base}/manager/v1/data/${network.id}?limit=1000`, values.key!);
    const result = await walkFeed({ agent, url: `${base}/manager/v1/data/${network.id}`, apiKey: values.key!, pid: server.pid! });
    const { seconds } = result;
    const idle = result.idleRssMb;
    const peak = result.peakRssMb;
    console.log(`Network ${network.name}: ${network.schools.length} schools, ${count!.n} events in the database.`);
    console.log(`| events returned | of | MB sent | seconds | events/s | idle RSS MB | peak RSS MB | growth MB | load avg |`);
    console.log(`|---|---|---|---|---|---|---|---|---|`);
    console.log(`| ${result.events} | ${count!.n} | ${(result.bytes / 1e6).toFixed(1)} | ${seconds.toFixed(1)} | ${Math.round(result.events / seconds)} | ${idle.toFixed(0)} | ${peak.toFixed(0)} | ${(peak - idle).toFixed(0)} | ${os.loadavg()[0]!.toFixed(2)} |`);
    if (result.status !== 200 || String(result.events) !== count!.n) process.exitCode = 1;
  } finally {
    server.kill("SIGTERM");
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
