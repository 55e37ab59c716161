// Data API benchmark: p50/p99 latency and requests per second for 1,000-event pages over HTTP
// against a running hub, and in the same run the same page's SQL (buildEventPageQuery) sent
// straight to the database. Setup, usage and results: docs/performance.md.
//
//   DATABASE_URL=postgresql://… npx tsx bench/data-api/run.ts --base http://localhost:3200
import { Agent } from "node:http";
import os from "node:os";
import { parseArgs } from "node:util";
import pg from "pg";
import { buildEventPageQuery, type TFeedView } from "@/lib/server/data-api/query-events";
import { pairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { ENTITY_NAMES, EVENT_KINDS, type TPersonalAttribute } from "@/lib/validations/data-api";
import { percentile } from "../lib/load";
import { httpGet, sampleInTurns, type TAcceptEncoding } from "./http";
import { loadNetwork } from "./load-network";

const { values } = parseArgs({
  options: { base: { type: "string" }, samples: { type: "string", default: "200" }, seconds: { type: "string", default: "5" }, concurrency: { type: "string", default: "4" }, key: { type: "string", default: "demo-api-key" } },
});
const url = process.env.DATABASE_URL;
if (!url || !values.base) {
  console.error("usage: DATABASE_URL=postgresql://… npx tsx bench/data-api/run.ts --base http://localhost:3200");
  process.exit(2);
}
const base = values.base.replace(/\/+$/, "");
const samples = Number(values.samples);
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const pool = new pg.Pool({ connectionString: url, max: concurrency });

const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

const get = (target: string, acceptEncoding: TAcceptEncoding) => httpGet(agent, target, values.key!, acceptEncoding);

/**
 * Sequential latency of several ways to get the same page, sampled in turns (a, b, c, a, b, c,
 * ...) so that whatever else the machine does weighs on each the same; then throughput of each
 * at `concurrency` for `seconds`.
 */
async function measure(timers: Record<string, () => Promise<void>>) {
  const entries = Object.entries(timers);
  const times = await sampleInTurns(timers, samples, 10);
  const result: Record<string, { p50: number; p99: number; rps: number }> = {};
  for (const [name, fn] of entries) {
    let done = 0;
    const until = performance.now() + seconds * 1000;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        await fn();
        done++;
      }
    }));
    const sorted = times[name]!;
    result[name] = { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99), rps: done / seconds };
  }
  return result;
}

async function main() {
  const network = await loadNetwork(pool);
  // The person with the longest history in the network (seed:large's support teacher, assigned to
  // every class in every subject), so the user_id page is a full page too.
  const { rows: [person] } = await pool.query<{ id: string; events: string }>(
    `SELECT p.pid AS id, count(*) AS events FROM "ChangeEvent" e CROSS JOIN LATERAL unnest(e."profileIds") AS p(pid)
      WHERE e."institutionId" = ANY($1::uuid[]) GROUP BY p.pid ORDER BY count(*) DESC LIMIT 1`, [network.schools],
  );
  const { rows: [counts] } = await pool.query<{ events: string; students: string }>(
    `SELECT (SELECT count(*) FROM "ChangeEvent" WHERE "institutionId" = ANY($1::uuid[])) AS events,
            (SELECT count(*) FROM "Profile" WHERE "institutionId" = ANY($1::uuid[]) AND role = 'aluno') AS students`, [network.schools],
  );
  const institutionIds = [network.id, ...network.schools];
  // The SQL column runs the endpoint's own statement, so it applies demo-app's view of the log as
  // the endpoint does (docs/decisions/016): its grant at the network (no school has a row of its
  // own) and the attributes it receives.
  const { rows: [grant] } = await pool.query<{ applicationId: string; grantedTxid: string; allowed: TPersonalAttribute[] }>(
    `SELECT x."applicationId", x."grantedTxid"::text AS "grantedTxid", x."allowedAttributes" AS allowed FROM "ApplicationAccess" x JOIN "OAuthApplication" a ON a.id = x."applicationId"
      WHERE a."clientId" = 'demo-app' AND x."institutionId" = $1`, [network.id],
  );
  const view: TFeedView = { grantedTxid: Object.fromEntries(institutionIds.map((id) => [id, grant!.grantedTxid])), visible: () => grant!.allowed };
  const scenarios = [
    { name: "no filter", query: "", filters: {} },
    { name: "only=turmaAluno", query: "only=turmaAluno", filters: { entities: ["turmaAluno" as const] } },
    // The request names the person with demo-app's own (pairwise) id (decision 014); the statement
    // takes the global one, as the endpoint's after translating it.
    { name: "user_id", query: `user_id=${(await pairwiseIds({ kind: "application", id: grant!.applicationId })).toPartner(person!.id)}`, filters: { userId: person!.id } },
    { name: "code_term=2026", query: "code_term=2026", filters: { periodCode: "2026" } },
  ];
  console.log(`Network ${network.name}: ${network.schools.length} schools, ${counts!.students} students, ${counts!.events} events; user_id ${person!.id} has ${person!.events}.`);
  console.log(`Load average at start: ${os.loadavg().map((l) => l.toFixed(2)).join(" ")} (${os.cpus().length} cores).\n`);
  const lines = [
    "| page (limit=1000, org = network) | events | HTTP gzip p50 | p99 | req/s | HTTP identity p50 | p99 | req/s | SQL p50 | p99 | q/s | ratio gzip | ratio identity |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const s of scenarios) {
    const target = `${base}/manager/v1/data/${network.id}?limit=1000${s.query ? `&${s.query}` : ""}`;
    // The client reads the whole body and decompresses it, as any client does, but does not parse
    // it: the goal compares the hub's work with the database's, and pg hands the SQL timer its rows
    // without parsing the records either. The page is checked once, outside the timings.
    const http = (acceptEncoding: TAcceptEncoding) => async () => {
      const page = await get(target, acceptEncoding);
      if (page.status !== 200) throw new Error(`${target} answered ${page.status}: ${page.body.toString()}`);
    };
    const check = await get(target, "gzip, deflate");
    if (check.status !== 200 || check.encoding !== "gzip") throw new Error(`${target}: expected a gzip 200, got ${check.status} ${check.encoding}`);
    const plain = await get(target, "identity");
    if (plain.status !== 200 || plain.encoding !== undefined) throw new Error(`${target}: expected an uncompressed 200, got ${plain.status} ${plain.encoding}`);
    const { dados } = JSON.parse(check.body.toString()) as { dados: Record<string, unknown[]> };
    const eventsInPage = Object.values(dados).reduce((n, list) => n + list.length, 0);
    const { sql, params } = buildEventPageQuery({
      filters: { institutionIds, entities: [...ENTITY_NAMES], kinds: [...EVENT_KINDS], ...s.filters, view },
      limit: 1000,
    });
    const r = await measure({
      gzip: http("gzip, deflate"),
      identity: http("identity"),
      sql: async () => {
        await pool.query(sql, params);
      },
    });
    const cells = (m: { p50: number; p99: number; rps: number }) => `${m.p50.toFixed(1)} | ${m.p99.toFixed(1)} | ${m.rps.toFixed(0)}`;
    lines.push(
      `| ${s.name} | ${eventsInPage} | ${cells(r.gzip!)} | ${cells(r.identity!)} | ${cells(r.sql!)} | ${(r.gzip!.p50 / r.sql!.p50).toFixed(1)}× | ${(r.identity!.p50 / r.sql!.p50).toFixed(1)}× |`,
    );
    console.log(lines.at(-1));
  }
  console.log(`\n${lines.join("\n")}`);
  await pool.end();
  agent.destroy();
}

main().catch(async (error) => {
  console.error(error instanceof Error ? error.message : error);
  agent.destroy();
  await pool.end();
  process.exitCode = 1;
});
