// Growth benchmark (issue #24): one network of 10 schools seeded at each size (10k, 100k, 1M
// students by default) with PostgreSQL COPY, each size in its own database, and every Data API
// query of the contract measured on the served hub (node server.mjs, production build; one server
// per size), the sizes in turns: HTTP p50/p99 beside the p50/p99 of the endpoint's own SQL sent
// straight to PostgreSQL, and the buffers its plan reads (EXPLAIN (ANALYZE, BUFFERS)). Then a full
// sync walk per size (events/s, the server's RSS). Prints a table per size and one of p50 against
// size, writes the figures (JSON) and a plot (SVG).
//
//   DATABASE_URL=postgresql://postgres:postgres@localhost:5432/postgres npx tsx bench/data-api/growth.ts \
//     [--sizes 10000,100000,1000000] [--schools 10] [--port 3300] [--samples 40] [--database hub_growth] \
//     [--plot docs/performance-growth.svg] [--json bench/data-api/growth-results.json] [--only all|oneroster]
//
// The OneRoster 1.2 pages (issue #43) are measured with the Data API's queries; `--only oneroster`
// measures them alone (no Data API query, no walk) and writes --json/--plot only when given. Each
// OneRoster page is timed three ways in turns: the served hub, its own SQL replayed, and its floor
// (oneroster-floor.ts: that SQL, then the hub's own answer's bytes sent through the hub's
// compression), and a table of the three and their ratios is printed.
// `--reuse` measures the databases an earlier run kept (migrated again, not seeded again): give
// both runs the same HUB_SECRET, which sealed the kept databases' secrets.
//
// DATABASE_URL names a server and a database to connect to for administration; the benchmark drops
// and creates `--database`_<size> there for each size, prepares each (migrations, demo seed), builds
// the hub if needed, and serves size i on `--port` + i. Setup, results and reading: docs/performance.md.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { Agent } from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { createDatabase, setDatabase, type Database } from "@/lib/server/db/database";
import { encodeCursor, type TCursorPosition } from "@/lib/data-api/cursor";
import { eventConditions, buildEventPageQuery, feedFloorSql, HORIZON_SQL, type TEventFilters, type TFeedView } from "@/lib/server/data-api/query-events";
import { readMaintainedCounts } from "@/lib/server/data-api/read-maintained-counts";
import { formatInZone } from "@/lib/server/data-api/time-zone";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { pairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { createSubject } from "@/lib/server/school-data/create-subject";
import { ENTITY_NAMES, EVENT_KINDS, type TEntityName, type TEventKind } from "@/lib/validations/data-api";
import { syntheticCpf } from "@/prisma/seed/names";
import { copyStudents, type TSeedSchool } from "./copy-seed";
import { percentile } from "../lib/load";
import { httpGetOk, sampleInTurns } from "./http";
import { linkDemoApp } from "./load-network";
import { unenrollStudent } from "@/lib/server/school-data/unenroll-student";
import { readRosteringAs } from "@/lib/server/oneroster/read-rostering";
import { courseIdSql } from "@/lib/server/oneroster/rostering-sources";
import { ALL_ONEROSTER_SCOPES } from "@/lib/oneroster/scopes";
import type { Database as TDatabase } from "@/lib/server/db/database";
import { replay, type TStatement } from "./replay";
import { runToExit, startServer, walkFeed } from "./serve";

const { values } = parseArgs({
  options: {
    sizes: { type: "string", default: "10000,100000,1000000" },
    schools: { type: "string", default: "10" },
    port: { type: "string", default: "3300" },
    samples: { type: "string", default: "40" },
    database: { type: "string", default: "hub_growth" },
    batch: { type: "string", default: "2000" },
    plot: { type: "string", default: "docs/performance-growth.svg" },
    json: { type: "string", default: "bench/data-api/growth-results.json" },
    only: { type: "string", default: "all" },
    reuse: { type: "boolean", default: false },
  },
});
const onlyOneRoster = values.only === "oneroster";
const adminUrl = process.env.DATABASE_URL;
if (!adminUrl) {
  console.error("usage: DATABASE_URL=postgresql://…/postgres npx tsx bench/data-api/growth.ts [--sizes 10000,100000,1000000]");
  process.exit(2);
}
const sizes = values.sizes!.split(",").map(Number);
const schoolCount = Number(values.schools);
const samples = Number(values.samples);
const KEY = "demo-api-key";
const TIME_ZONE = process.env.HUB_TIME_ZONE ?? "America/Sao_Paulo";
const secret = process.env.HUB_SECRET ?? randomBytes(32).toString("hex");
const databaseOf = (size: number) => `${values.database}_${size}`;
const urlOf = (database: string) => {
  const u = new URL(adminUrl);
  u.pathname = `/${database}`;
  return u.toString();
};
const agent = new Agent({ keepAlive: true, maxSockets: 2 });
const log = (message: string) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${message}`);

interface TNetwork {
  id: string;
  schools: TSeedSchool[];
}

/** Network, schools, periods, subjects and support teachers through the school-data services. */
async function createNetwork(): Promise<TNetwork> {
  const network = await createInstitution({ name: "Rede de crescimento", kind: "network" });
  const schools: TSeedSchool[] = [];
  for (let s = 0; s < schoolCount; s++) {
    const school = await createInstitution({ name: `Escola de crescimento ${s + 1}`, kind: "school", parentId: network.id });
    const period = await createPeriod({ institutionId: school.id, code: "2026", name: "Ano letivo 2026", startsOn: "2026-02-02", endsOn: "2026-12-11" });
    const subjectIds = [];
    for (const name of ["Matemática", "Língua Portuguesa", "Ciências", "História"]) subjectIds.push((await createSubject({ institutionId: school.id, name })).id);
    const person = await createPerson({ name: `Professora de apoio ${s + 1} (AEE)`, cpf: syntheticCpf(900_000 + s) });
    const teacher = await createProfile({ personId: person.id, institutionId: school.id, role: "professor" });
    schools.push({ id: school.id, periodId: period.id, periodCode: "2026", subjectIds, supportTeacherId: teacher.id, students: 0, classes: 0 });
  }
  return { id: network.id, schools };
}

/** Grows every school to `perSchool` students, schools in turn, `values.batch` students per transaction. */
async function grow(pool: pg.Pool, network: TNetwork, perSchool: number, serial: { next: number }): Promise<number> {
  const started = performance.now();
  const client = await pool.connect();
  try {
    await client.query("SET statement_timeout = 0");
    const total = network.schools.reduce((n, s) => n + Math.max(0, perSchool - s.students), 0);
    let done = 0;
    while (network.schools.some((s) => s.students < perSchool)) {
      for (const school of network.schools) {
        const n = Math.min(Number(values.batch), perSchool - school.students);
        if (n <= 0) continue;
        await copyStudents(client, school, n, serial);
        done += n;
        const rate = done / ((performance.now() - started) / 1000);
        process.stderr.write(`\r  ${done}/${total} students, ${Math.round(rate)}/s, ETA ${Math.round((total - done) / rate)} s   `);
      }
    }
    process.stderr.write("\n");
    await client.query(`VACUUM ANALYZE "ChangeEvent", "Person", "Profile", "Class", "ClassStudent", "SubjectTeacher", "EventCount", "FeedClock"`);
    // Write the seeding's dirty pages now: otherwise the checkpoint that follows a large COPY
    // flushes them (2.7 GB at a million students) while the queries are being measured.
    await client.query("CHECKPOINT");
  } finally {
    client.release();
  }
  return (performance.now() - started) / 1000;
}

interface TQueryResult {
  name: string;
  events: number;
  http: { p50: number; p99: number };
  sql: { p50: number; p99: number };
  /** OneRoster pages: the floor (its own SQL, then the same body's delivery: oneroster-floor.ts). */
  floor?: { p50: number; p99: number };
  buffers: { total: number; people: number };
  sqlNote?: string;
}

interface TStep {
  students: number;
  events: number;
  databaseMb: number;
  seedSeconds: number;
  loadAverage: number;
  queries: TQueryResult[];
  /** What min_date's scan reads before its first match: events of transactions in flight at the date. */
  inFlight: { events: number; transactions: number };
  walk: Awaited<ReturnType<typeof walkFeed>>;
}

/**
 * The events min_date's scan passes over at the median second T: from the feed clock's floor for T
 * (decision 018), those of transactions that started before T (their occurredAt) but took their
 * txid after the floor, i.e. were in flight at T. Their number depends on the writes running then
 * (here the seeder's COPY transactions of --batch students), not on how long the history is.
 */
async function inFlightAt(pool: pg.Pool, networkIds: string[], second: number): Promise<TStep["inFlight"]> {
  const { rows: [row] } = await pool.query<{ events: number; transactions: number }>(
    `SELECT count(*)::int AS events, count(DISTINCT e.txid)::int AS transactions FROM "ChangeEvent" e
      WHERE e."institutionId" = ANY($1::uuid[]) AND e."occurredAt" < $2::timestamptz AND e.txid >= ${feedFloorSql("$2")}`,
    [networkIds, new Date(second).toISOString()],
  );
  return row!;
}

/** The median event of the network's history, in feed order (the deep page's cursor), and its second (the dates). */
async function medianEvent(pool: pg.Pool, networkIds: string[]): Promise<{ position: TCursorPosition; second: number }> {
  const { rows: [count] } = await pool.query<{ n: string }>(`SELECT sum(n)::text AS n FROM "EventCount" WHERE "institutionId" = ANY($1::uuid[])`, [networkIds]);
  const { rows: [median] } = await pool.query<TCursorPosition & { ms: number }>(
    `SELECT txid::text, seq::text, (extract(epoch FROM "occurredAt") * 1000)::float8 AS ms FROM "ChangeEvent"
      WHERE "institutionId" = ANY($1::uuid[]) ORDER BY txid, seq OFFSET $2 LIMIT 1`,
    [networkIds, Math.floor(Number(count!.n) / 2)],
  );
  return { position: { txid: median!.txid, seq: median!.seq }, second: Math.floor(median!.ms / 1000) * 1000 };
}

const localDate = (ms: number) => formatInZone(Math.floor(ms / 1000) * 1000, TIME_ZONE).slice(0, 19).replace(/-/g, "/").replace("T", "+");

/**
 * Shared hit + read blocks of the statement's plan (EXPLAIN (ANALYZE, BUFFERS)), init plans and
 * CTEs included, and how many of them are the page's people looked up after the cut
 * (query-events.ts, CTE "pe"): everything but the feed's scan (CTE "u") and the horizon (CTE "h").
 * A CTE's reads show on the node that first pulls it, so "pe" alone can hold "u"'s.
 */
async function buffersOf(pool: pg.Pool, sql: string, params: unknown[]): Promise<{ total: number; people: number }> {
  type TPlan = Record<string, unknown> & { Plans?: TPlan[] };
  const { rows } = await pool.query<{ "QUERY PLAN": [{ Plan: TPlan }] }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${sql}`, params);
  const blocks = (plan: TPlan | undefined) => (plan ? Number(plan["Shared Hit Blocks"] ?? 0) + Number(plan["Shared Read Blocks"] ?? 0) : 0);
  const find = (plan: TPlan, name: string): TPlan | undefined => (plan["Subplan Name"] === name ? plan : plan.Plans?.map((p) => find(p, name)).find(Boolean));
  const root = rows[0]!["QUERY PLAN"][0].Plan;
  const total = blocks(root);
  return { total, people: find(root, "CTE pe") ? total - blocks(find(root, "CTE u")) - blocks(find(root, "CTE h")) : 0 };
}

const stats = (sorted: number[]) => ({ p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) });

/** One size: its own database, network and server. */
interface TSize {
  students: number;
  db: Database;
  pool: pg.Pool;
  network: TNetwork;
  networkIds: string[];
  view: TFeedView;
  userPartnerId: string;
  median: Awaited<ReturnType<typeof medianEvent>>;
  /** Just before the last DELTA_CHANGES unenrolments of school 1, written after the seed: a OneRoster delta read's date. */
  deltaSince: string;
  /** The database's URL, and the port and base URL of the server that serves it. */
  url: string;
  port: string;
  base: string;
  facts: Omit<TStep, "students" | "queries" | "walk" | "loadAverage">;
}

/**
 * Every query at every size, the sizes in turns (query by query: HTTP and SQL at each size, then
 * the next sample), so whatever else the machine does weighs on each size alike. Returns each
 * size's results, in the order of `sizes`.
 */
async function measureSizes(sizes: TSize[]): Promise<TQueryResult[][]> {
  const all = (s: TSize) => ({ entities: [...ENTITY_NAMES] as TEntityName[], kinds: [...EVENT_KINDS] as TEventKind[], view: s.view });
  // user_id and only=turma have fewer than 1,000 events at 10k students (137 and 340): their pages
  // are of 100, so each size reads a full page and the sizes compare.
  const pagesOf = (s: TSize): { name: string; org: string; query: string; filters: Partial<TEventFilters>; after?: TCursorPosition; limit?: number }[] => {
    const school1 = s.network.schools[0]!;
    const medianSecond = s.median.second;
    return [
      { name: "first page", org: s.network.id, query: "", filters: {} },
      { name: "deep page (cursor at the median)", org: s.network.id, query: `cursor=${encodeCursor(s.median.position)}`, filters: {}, after: s.median.position },
      { name: "min_date (median)", org: s.network.id, query: `min_date=${localDate(medianSecond)}`, filters: { from: new Date(medianSecond) } },
      { name: "max_date (median)", org: s.network.id, query: `max_date=${localDate(medianSecond)}`, filters: { until: new Date(medianSecond + 1000) } },
      { name: "user_id (support teacher), limit=100", org: s.network.id, query: `user_id=${s.userPartnerId}`, filters: { userId: school1.supportTeacherId }, limit: 100 },
      { name: "school (org = school 1)", org: school1.id, query: "", filters: {} },
      { name: "class (only=turma), limit=100", org: s.network.id, query: "only=turma", filters: { entities: ["turma"] }, limit: 100 },
      { name: "code_term=2026", org: s.network.id, query: "code_term=2026", filters: { periodCode: "2026" } },
      { name: "only=turmaAluno,usuario", org: s.network.id, query: "only=turmaAluno,usuario", filters: { entities: ["turmaAluno", "usuario"] } },
    ];
  };
  const results: TQueryResult[][] = sizes.map(() => []);
  const pages = sizes.map(pagesOf);
  for (let q = 0; q < pages[0]!.length; q++) {
    const timers: Record<string, () => Promise<unknown>> = {};
    const prepared = [];
    for (const [i, s] of sizes.entries()) {
      const page = pages[i]![q]!;
      const limit = page.limit ?? 1000;
      const target = `${s.base}/manager/v1/data/${page.org}?limit=${limit}${page.query ? `&${page.query}` : ""}`;
      const check = await httpGetOk(agent, target, KEY, "gzip, deflate");
      const { dados } = JSON.parse(check.body.toString()) as { dados: Record<string, unknown[]> };
      const events = Object.values(dados).reduce((n, list) => n + list.length, 0);
      const institutionIds = page.org === s.network.id ? s.networkIds : [page.org];
      const { sql, params } = buildEventPageQuery({ filters: { institutionIds, ...all(s), ...page.filters }, after: page.after, limit });
      timers[`http ${i}`] = () => httpGetOk(agent, target, KEY, "gzip, deflate");
      timers[`sql ${i}`] = () => s.pool.query(sql, params);
      prepared.push({ page, events, sql, params });
    }
    const times = await sampleInTurns(timers, samples, 5);
    for (const [i, s] of sizes.entries()) {
      const { page, events, sql, params } = prepared[i]!;
      results[i]!.push({ name: page.name, events, http: stats(times[`http ${i}`]!), sql: stats(times[`sql ${i}`]!), buffers: await buffersOf(s.pool, sql, params) });
    }
    log(`${pages[0]![q]!.name}: HTTP p50 ${results.map((r) => r.at(-1)!.http.p50.toFixed(1)).join(" / ")} ms, SQL p50 ${results.map((r) => r.at(-1)!.sql.p50.toFixed(1)).join(" / ")} ms`);
  }

  // Summary of the network: the endpoint reads the maintained counts (read-maintained-counts.ts),
  // through each size's database (the hub's module-level database, set before each call).
  const timers: Record<string, () => Promise<unknown>> = {};
  for (const [i, s] of sizes.entries()) {
    const target = `${s.base}/manager/v1/summary/${s.network.id}`;
    timers[`http ${i}`] = () => httpGetOk(agent, target, KEY, "gzip, deflate");
    timers[`sql ${i}`] = () => {
      setDatabase(s.db);
      return readMaintainedCounts({ institutionIds: s.networkIds, filters: all(s) });
    };
  }
  const times = await sampleInTurns(timers, samples, 5);
  const countsSql = `SELECT c."institutionId", c.entity, c.kind, c."periodCode", c.role, c."hiddenMask", sum(c.n) FROM "EventCount" c
    WHERE c."institutionId" = ANY($1::uuid[]) GROUP BY 1, 2, 3, 4, 5, 6`;
  for (const [i, s] of sizes.entries()) {
    setDatabase(s.db);
    const summaryEvents = (await readMaintainedCounts({ institutionIds: s.networkIds, filters: all(s) })).reduce((n, r) => n + r.n, 0);
    results[i]!.push({ name: "summary (network)", events: summaryEvents, http: stats(times[`http ${i}`]!), sql: stats(times[`sql ${i}`]!), buffers: await buffersOf(s.pool, countsSql, [s.networkIds]), sqlNote: "maintained counts" });
    // The GROUP BY it replaces, for reference (a few samples: it reads every event of the network).
    const params: unknown[] = [s.networkIds];
    const groupSql = `SELECT e."institutionId", e.entity, e.kind, count(*) FROM "ChangeEvent" e WHERE ${['e."institutionId" = ANY($1::uuid[])', ...eventConditions(all(s), params)].join(" AND ")} GROUP BY 1, 2, 3`;
    const groupTimes = await sampleInTurns({ sql: () => s.pool.query(groupSql, params) }, 5, 1);
    results[i]!.push({ name: "summary by GROUP BY (before #24)", events: summaryEvents, http: { p50: NaN, p99: NaN }, sql: stats(groupTimes.sql!), buffers: await buffersOf(s.pool, groupSql, params), sqlNote: "reference" });
    // An application granted now, after the whole history (decision 016: its feed starts with the
    // current state): its first summary computes the counts below its grant once per institution
    // (hub_grant_counts), every later one reads them. SQL only: the first call, then samples.
    const { rows: [now] } = await s.pool.query<{ xmin: string }>(HORIZON_SQL);
    const lateView: TFeedView = { ...s.view, grantedTxid: Object.fromEntries(s.networkIds.map((id) => [id, now!.xmin])) };
    const lateFilters = { ...all(s), view: lateView };
    const firstStarted = performance.now();
    const lateEvents = (await readMaintainedCounts({ institutionIds: s.networkIds, filters: lateFilters })).reduce((n, r) => n + r.n, 0);
    const firstMs = performance.now() - firstStarted;
    const lateTimes = await sampleInTurns({ sql: () => readMaintainedCounts({ institutionIds: s.networkIds, filters: lateFilters }) }, samples, 2);
    results[i]!.push({ name: "summary, application granted after the history (SQL)", events: lateEvents, http: { p50: NaN, p99: NaN }, sql: stats(lateTimes.sql!), buffers: { total: 0, people: 0 }, sqlNote: `first call ${firstMs.toFixed(0)} ms` });
    log(`${s.students} students, summary: HTTP p50 ${results[i]!.at(-3)!.http.p50.toFixed(1)} ms; GROUP BY p50 ${results[i]!.at(-2)!.sql.p50.toFixed(1)} ms; late grant first call ${firstMs.toFixed(0)} ms, then p50 ${results[i]!.at(-1)!.sql.p50.toFixed(1)} ms`);
  }
  return results;
}

/** Unenrolments written after the seed, the same number at every size: what a OneRoster delta read returns. */
const DELTA_CHANGES = 200;

/**
 * DELTA_CHANGES unenrolments of school 1 through the school-data service (each its own
 * transaction and event), after the seed; returns a moment just before them, for the delta read's
 * `dateLastModified>` filter.
 */
async function changeAfterSeed(pool: pg.Pool, network: TNetwork): Promise<string> {
  await new Promise((resolve) => setTimeout(resolve, 1100));
  const since = new Date(Date.now() - 500).toISOString();
  const { rows } = await pool.query<{ id: string }>(
    `SELECT cs.id FROM "ClassStudent" cs JOIN "Class" c ON c.id = cs."classId" WHERE c."institutionId" = $1 ORDER BY cs.id LIMIT $2`,
    [network.schools[0]!.id, DELTA_CHANGES],
  );
  for (const row of rows) await unenrollStudent({ enrollmentId: row.id });
  return since;
}

/** A OneRoster token of demo-app (client credentials) from a size's served hub. */
async function oneRosterToken(base: string): Promise<string> {
  const response = await fetch(`${base}/ims/oneroster/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from("demo-app:demo-secret").toString("base64")}` },
    body: "grant_type=client_credentials",
  });
  const body = (await response.json()) as { access_token?: string };
  if (!response.ok || !body.access_token) throw new Error(`OneRoster token: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/**
 * The statements a OneRoster read sends, in order, captured by running the endpoint's own code
 * in this process against the size's database: "its own SQL", replayed one after the other.
 * The application is looked up by its client id in the reach's statement, as the served hub does
 * once the token's signature is checked. Left out: the access log's insert, written off the
 * response path.
 */
async function rosteringStatements(s: TSize, path: string): Promise<TStatement[]> {
  const captured: TStatement[] = [];
  const spy: TDatabase = {
    ...s.db,
    sql: {
      ...s.db.sql,
      query: (sql, params, options) => {
        // A statement the hub prepares is replayed prepared too: its plan is the generic one.
        if (!/^\s*INSERT/i.test(sql)) captured.push({ sql, params: params ?? [], ...(options?.prepared ? { name: `growth_${createHash("sha256").update(sql).digest("hex").slice(0, 16)}` } : {}) });
        return s.db.sql.query(sql, params, options);
      },
    },
  };
  setDatabase(spy);
  try {
    const url = new URL(path, "http://x/");
    const client = { clientId: "demo-app", scopes: new Set(ALL_ONEROSTER_SCOPES) };
    const answer = await readRosteringAs(client, { segments: url.pathname.split("/").filter(Boolean), query: url.searchParams });
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  } finally {
    setDatabase(s.db);
  }
  return captured;
}

/** An offset at about 90% of a size's students, a whole page of users. */
const walkOffset = (s: TSize) => Math.floor((0.9 * s.students) / 1000) * 1000;

/** The OneRoster pages of issue #43, point 7, at every size in turns: HTTP beside the endpoint's own statements. */
async function measureOneRoster(sizes: TSize[]): Promise<TQueryResult[][]> {
  const results: TQueryResult[][] = sizes.map(() => []);
  const tokens = await Promise.all(sizes.map((s) => oneRosterToken(s.base)));
  const pagesOf = (s: TSize, classId: string, courseId: string) => [
    { name: "OneRoster users (network), limit=1000", path: "users?limit=1000", member: "users" },
    { name: "OneRoster enrollments of school 1, limit=1000", path: `schools/${s.network.schools[0]!.id}/enrollments?limit=1000`, member: "enrollments" },
    {
      name: `OneRoster delta: enrollments dateLastModified> (${DELTA_CHANGES} changes)`,
      path: `enrollments?limit=1000&filter=${encodeURIComponent(`dateLastModified>'${s.deltaSince}'`)}`,
      member: "enrollments",
    },
    { name: "OneRoster students of a class", path: `classes/${classId}/students`, member: "users" },
    { name: "OneRoster enrollments filtered by a class", path: `enrollments?filter=${encodeURIComponent(`class.sourcedId='${classId}'`)}`, member: "enrollments" },
    { name: "OneRoster classes of a course, limit=100", path: `courses/${courseId}/classes?limit=100`, member: "classes" },
    // A partner's sync walks every page: the page at 90% of the students, just after the one before it (page-positions.ts).
    { name: "OneRoster users, limit=1000, the next page of a walk at 90%", path: `users?limit=1000&offset=${walkOffset(s)}`, member: "users", after: `users?limit=1000&offset=${walkOffset(s) - 1000}` },
  ];
  // The page before a walk's page, served by the hub and read by this process (whose statements are captured), so both continue from it.
  const walkTo = async (s: TSize, i: number, page: { after?: string }) => {
    if (!page.after) return;
    await httpGetOk(agent, `${s.base}/ims/oneroster/rostering/v1p2/${page.after}`, "", "gzip, deflate", { authorization: `Bearer ${tokens[i]!}` });
    await rosteringStatements(s, page.after);
  };
  // A class of school 1, per size (the first by id).
  const classOf = await Promise.all(
    sizes.map(async (s) => (await s.pool.query<{ id: string }>(`SELECT id FROM "Class" WHERE "institutionId" = $1 ORDER BY id LIMIT 1`, [s.network.schools[0]!.id])).rows[0]!.id),
  );
  // That class's course (a derived id: rostering-sources.ts, courseIdSql).
  const courseOf = await Promise.all(
    sizes.map(async (s, i) => (await s.pool.query<{ id: string }>(
      `SELECT ${courseIdSql(`e."institutionId"::text`, `(e.record->>'periodoId')`, `(e.record->>'serie')`)} AS id FROM "ChangeEvent" e WHERE e.entity = 'turma' AND e."recordId" = $1 ORDER BY e.txid DESC LIMIT 1`,
      [classOf[i]],
    )).rows[0]!.id),
  );
  const pages = sizes.map((s, i) => pagesOf(s, classOf[i]!, courseOf[i]!));
  // Each page's floor (oneroster-floor.ts): its own SQL, then the hub's answer's bytes, compressed as the hub does.
  const floorPages: TFloorPage[] = [];
  for (const [i, s] of sizes.entries()) {
    for (const page of pages[i]!) {
      await walkTo(s, i, page);
      const check = await httpGetOk(agent, `${s.base}/ims/oneroster/rostering/v1p2/${page.path}`, "", "identity", { authorization: `Bearer ${tokens[i]!}` });
      floorPages.push({ url: s.url, statements: await rosteringStatements(s, page.path), body: check.body.toString("base64") });
    }
  }
  const floor = await startOneRosterFloor(floorPages);
  for (let q = 0; q < pages[0]!.length; q++) {
    const timers: Record<string, () => Promise<unknown>> = {};
    const prepared = [];
    for (const [i, s] of sizes.entries()) {
      const page = pages[i]![q]!;
      const target = `${s.base}/ims/oneroster/rostering/v1p2/${page.path}`;
      const headers = { authorization: `Bearer ${tokens[i]!}` };
      await walkTo(s, i, page);
      const check = await httpGetOk(agent, target, "", "gzip, deflate", headers);
      const records = ((JSON.parse(check.body.toString()) as Record<string, unknown[]>)[page.member] ?? []).length;
      const statements = await rosteringStatements(s, page.path);
      timers[`http ${i}`] = () => httpGetOk(agent, target, "", "gzip, deflate", headers);
      const floorTarget = `${floor.base}/${i * pages[0]!.length + q}`;
      timers[`floor ${i}`] = () => httpGetOk(agent, floorTarget, "", "gzip, deflate");
      timers[`sql ${i}`] = async () => {
        for (const statement of statements) await replay(s.pool, statement);
      };
      prepared.push({ page, records, statements, total: check.headers["x-total-count"] });
    }
    const times = await sampleInTurns(timers, samples, 5);
    for (const [i, s] of sizes.entries()) {
      const { page, records, statements, total } = prepared[i]!;
      let buffers = 0;
      for (const statement of statements) buffers += (await buffersOf(s.pool, statement.sql, statement.params)).total;
      results[i]!.push({
        name: page.name,
        events: records,
        http: stats(times[`http ${i}`]!),
        sql: stats(times[`sql ${i}`]!),
        floor: stats(times[`floor ${i}`]!),
        buffers: { total: buffers, people: 0 },
        sqlNote: `${statements.length} statements; X-Total-Count ${String(total)}`,
      });
    }
    log(
      `${pages[0]![q]!.name}: HTTP p50 ${results.map((r) => r.at(-1)!.http.p50.toFixed(1)).join(" / ")} ms, floor p50 ${results.map((r) => r.at(-1)!.floor!.p50.toFixed(1)).join(" / ")} ms, SQL p50 ${results.map((r) => r.at(-1)!.sql.p50.toFixed(1)).join(" / ")} ms`,
    );
  }
  floor.stop();
  console.log(oneRosterTable(sizes, results));
  return results;
}

type TFloorPage = { url: string; statements: TStatement[]; body: string };

/** The floor server (oneroster-floor.ts) serving `floorPages`, GET /<index> each. */
async function startOneRosterFloor(floorPages: TFloorPage[]): Promise<{ base: string; stop: () => void }> {
  const file = path.join(os.tmpdir(), `oneroster-floor-${process.pid}.json`);
  writeFileSync(file, JSON.stringify(floorPages));
  // node itself (tsx as its loader), not npx: npx's node child outlived a SIGTERM sent to npx and held the run's stdout open.
  const child = spawn(process.execPath, ["--import", "tsx", "bench/data-api/oneroster-floor.ts", file], { stdio: ["ignore", "pipe", "inherit"] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      const ready = /ready (\d+)/.exec(chunk.toString());
      if (ready) resolve(ready[1]!);
    });
    child.once("exit", (code) => reject(new Error(`the OneRoster floor exited (${code})`)));
  });
  return { base: `http://127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") };
}

/** Each page at each size: the hub, its floor and its own SQL (p50), and the ratios point 7 asks for. */
function oneRosterTable(sizes: TSize[], results: TQueryResult[][]): string {
  const rows = results[0]!.flatMap((first, q) =>
    sizes.map((s, i) => {
      const r = results[i]![q]!;
      const f = r.floor!.p50;
      return `| ${first.name} | ${s.students.toLocaleString("en")} | ${r.http.p50.toFixed(1)} | ${f.toFixed(1)} | ${r.sql.p50.toFixed(1)} | ${(r.http.p50 / r.sql.p50).toFixed(2)}× | ${(f / r.sql.p50).toFixed(2)}× | ${(r.http.p50 / f).toFixed(2)}× |`;
    }),
  );
  return ["| page | students | HTTP p50 ms | floor p50 ms | its own SQL p50 ms | HTTP ÷ SQL | floor ÷ SQL | HTTP ÷ floor |", "|---|---:|---:|---:|---:|---:|---:|---:|", ...rows].join("\n");
}

/** "scan + people" when the statement looks people up, else the total. */
const bufferCell = (q: TQueryResult) => (q.buffers.total === 0 ? "–" : q.buffers.people ? `${q.buffers.total - q.buffers.people} + ${q.buffers.people}` : String(q.buffers.total));

function stepTable(step: TStep): string {
  const f = (n: number) => (Number.isNaN(n) ? "–" : n.toFixed(1));
  return [
    `${step.students.toLocaleString("en")} students, ${step.events.toLocaleString("en")} events, database ${step.databaseMb} MB, seeded in ${step.seedSeconds.toFixed(0)} s, load average ${step.loadAverage.toFixed(2)}`,
    "",
    "| query (limit=1000) | events | HTTP gzip p50 ms | p99 | SQL p50 ms | p99 | ratio | buffers: scan + people |",
    "|---|---:|---:|---:|---:|---:|---:|---:|",
    ...step.queries.map((q) => `| ${q.name}${q.sqlNote?.startsWith("first") ? ` (${q.sqlNote})` : ""} | ${q.events} | ${f(q.http.p50)} | ${f(q.http.p99)} | ${f(q.sql.p50)} | ${f(q.sql.p99)} | ${Number.isNaN(q.http.p50) ? "–" : `${(q.http.p50 / q.sql.p50).toFixed(1)}×`} | ${bufferCell(q)} |`),
    "",
    `min_date's scan passes over ${step.inFlight.events.toLocaleString("en")} events of ${step.inFlight.transactions} transactions in flight at the median second.`,
    "",
    `Full sync walk: ${step.walk.events.toLocaleString("en")} events in ${step.walk.seconds.toFixed(1)} s = ${Math.round(step.walk.eventsPerSecond).toLocaleString("en")} events/s; server RSS ${step.walk.idleRssMb.toFixed(0)} MB idle, ${step.walk.peakRssMb.toFixed(0)} MB peak.`,
  ].join("\n");
}

function growthTable(steps: TStep[]): string {
  const names = steps[0]!.queries.map((q) => q.name);
  const head = `| query | ${steps.map((s) => `p50 ms at ${s.students.toLocaleString("en")}`).join(" | ")} | ${steps.map((s) => `buffers (scan + people) at ${s.students.toLocaleString("en")}`).join(" | ")} | last / first p50 |`;
  const rows = names.map((name) => {
    const q = steps.map((s) => s.queries.find((x) => x.name === name)!);
    const p = q.map((x) => (Number.isNaN(x.http.p50) ? x.sql.p50 : x.http.p50));
    return `| ${name} | ${p.map((v) => v.toFixed(1)).join(" | ")} | ${q.map(bufferCell).join(" | ")} | ${(p.at(-1)! / p[0]!).toFixed(2)}× |`;
  });
  return [head, `|---|${steps.map(() => "---:|").join("")}${steps.map(() => "---:|").join("")}---:|`, ...rows].join("\n");
}

/** p50 (HTTP, or SQL for the GROUP BY reference) against size, log scale, one line per query. */
function plot(steps: TStep[]): string {
  const width = 760;
  const height = 420;
  const left = 60;
  const right = 250;
  const top = 20;
  const bottom = 50;
  const names = steps[0]!.queries.filter((q) => !Number.isNaN(q.http.p50)).map((q) => q.name);
  const p50 = (s: TStep, name: string) => s.queries.find((q) => q.name === name)!.http.p50;
  const max = Math.max(50, ...steps.flatMap((s) => names.map((n) => p50(s, n))));
  const xs = steps.map((s) => Math.log10(s.students));
  const x = (v: number) => left + ((v - xs[0]!) / Math.max(1e-9, xs.at(-1)! - xs[0]!)) * (width - left - right);
  const y = (v: number) => top + (1 - v / max) * (height - top - bottom);
  const colours = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<line x1="${left}" y1="${y(0)}" x2="${width - right}" y2="${y(0)}" stroke="black"/><line x1="${left}" y1="${top}" x2="${left}" y2="${y(0)}" stroke="black"/>`,
    `<line x1="${left}" y1="${y(50)}" x2="${width - right}" y2="${y(50)}" stroke="#d62728" stroke-dasharray="4 3"/><text x="${width - right - 70}" y="${y(50) - 4}" fill="#d62728">50 ms goal</text>`,
    ...[0, 0.25, 0.5, 0.75, 1].map((f) => `<text x="${left - 6}" y="${y(max * f) + 4}" text-anchor="end">${(max * f).toFixed(0)}</text>`),
    ...steps.map((s, i) => `<text x="${x(xs[i]!)}" y="${height - bottom + 18}" text-anchor="middle">${s.students.toLocaleString("en")}</text>`),
    `<text x="${(left + width - right) / 2}" y="${height - 10}" text-anchor="middle">students (log scale)</text>`,
    `<text x="14" y="${(top + height - bottom) / 2}" transform="rotate(-90 14 ${(top + height - bottom) / 2})" text-anchor="middle">HTTP p50 (ms)</text>`,
    ...names.map((name, i) => {
      const points = steps.map((s, j) => `${x(xs[j]!).toFixed(1)},${y(p50(s, name)).toFixed(1)}`).join(" ");
      return `<polyline fill="none" stroke="${colours[i % colours.length]}" stroke-width="2" points="${points}"/><rect x="${width - right + 12}" y="${top + i * 18}" width="12" height="3" fill="${colours[i % colours.length]}"/><text x="${width - right + 30}" y="${top + i * 18 + 5}">${name}</text>`;
    }),
    "</svg>",
  ];
  return `${parts.join("\n")}\n`;
}

/**
 * A fresh database for one size, prepared as npm start prepares one (migrations, demo seed with
 * demo-app), with the network grown to `students` and demo-app reading it from its first day.
 * With --reuse, the database an earlier run kept is migrated and described instead.
 */
async function seedSize(admin: pg.Client, students: number, port: number): Promise<TSize> {
  const database = databaseOf(students);
  const kept = values.reuse && (await admin.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [database])).rowCount === 1;
  if (!kept) {
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.query(`CREATE DATABASE ${database}`);
  }
  const url = urlOf(database);
  if (spawnSync("npx", ["tsx", "scripts/prepare-db.ts"], { env: envOf(url), stdio: "inherit" }).status !== 0) throw new Error("prepare-db failed");
  log(`prepared ${database}${kept ? " (kept from an earlier run)" : ""}`);
  const db = createDatabase({ url, statementTimeoutMs: 0 });
  setDatabase(db);
  // As the hub connects (lib/server/db/database.ts): no JIT, so "its own SQL" is planned as the hub plans it.
  const pool = new pg.Pool({ connectionString: url, max: 2, options: "-c jit=off" });
  let network: TNetwork;
  let seedSeconds = 0;
  let deltaSince: string;
  if (kept) {
    network = await keptNetwork(pool);
    const { rows: [first] } = await pool.query<{ at: Date }>(
      `SELECT min("occurredAt") AS at FROM "ChangeEvent" WHERE "institutionId" = $1 AND entity = 'turmaAluno' AND kind = 'delete'`,
      [network.schools[0]!.id],
    );
    deltaSince = new Date(first!.at.getTime() - 500).toISOString();
  } else {
    network = await createNetwork();
    // demo-app reads the network from its first day (its grant is the horizon now, below every student).
    await linkDemoApp(pool, network.id);
    log(`growing to ${students} students`);
    seedSeconds = await grow(pool, network, Math.ceil(students / schoolCount), { next: 1_000_000 });
    deltaSince = await changeAfterSeed(pool, network);
  }
  const { rows: [grant] } = await pool.query<{ applicationId: string; grantedTxid: string; allowed: string[] }>(
    `SELECT x."applicationId", x."grantedTxid"::text AS "grantedTxid", x."allowedAttributes" AS allowed FROM "ApplicationAccess" x
      JOIN "OAuthApplication" a ON a.id = x."applicationId" WHERE a."clientId" = 'demo-app' AND x."institutionId" = $1`,
    [network.id],
  );
  const networkIds = [network.id, ...network.schools.map((s) => s.id)];
  const view: TFeedView = { grantedTxid: Object.fromEntries(networkIds.map((id) => [id, grant!.grantedTxid])), visible: () => grant!.allowed as never };
  const userPartnerId = (await pairwiseIds({ kind: "application", id: grant!.applicationId })).toPartner(network.schools[0]!.supportTeacherId);
  const { rows: [facts] } = await pool.query<{ events: string; mb: string }>(
    `SELECT (SELECT sum(n) FROM "EventCount" WHERE "institutionId" = ANY($1::uuid[]))::text AS events, (pg_database_size(current_database()) / 1048576)::text AS mb`,
    [networkIds],
  );
  log(`${kept ? "kept" : `seeded in ${seedSeconds.toFixed(0)} s`}: ${facts!.events} events, ${facts!.mb} MB`);
  const median = await medianEvent(pool, networkIds);
  const inFlight = await inFlightAt(pool, networkIds, median.second);
  return {
    students: network.schools.reduce((n, s) => n + s.students, 0),
    db,
    pool,
    network,
    networkIds,
    view,
    userPartnerId,
    median,
    deltaSince,
    url,
    port: String(port),
    base: `http://127.0.0.1:${port}`,
    facts: { events: Number(facts!.events), databaseMb: Number(facts!.mb), seedSeconds, inFlight },
  };
}

/** The network an earlier run seeded (createNetwork's names, schools in the order they were made). */
async function keptNetwork(pool: pg.Pool): Promise<TNetwork> {
  const { rows: [network] } = await pool.query<{ id: string }>(`SELECT id FROM "Institution" WHERE name = 'Rede de crescimento' AND kind = 'network'`);
  if (!network) throw new Error("--reuse: the kept database has no growth network; run without --reuse");
  const { rows } = await pool.query<TSeedSchool>(
    `SELECT i.id,
            (SELECT p.id FROM "Period" p WHERE p."institutionId" = i.id AND p.code = '2026') AS "periodId", '2026' AS "periodCode",
            ARRAY(SELECT s.id FROM "Subject" s WHERE s."institutionId" = i.id ORDER BY s."createdAt") AS "subjectIds",
            (SELECT pr.id FROM "Profile" pr JOIN "Person" pe ON pe.id = pr."personId"
              WHERE pr."institutionId" = i.id AND pe.name LIKE 'Professora de apoio %' LIMIT 1) AS "supportTeacherId",
            (SELECT count(*)::int FROM "Profile" pr WHERE pr."institutionId" = i.id AND pr.role = 'aluno') AS students,
            (SELECT count(*)::int FROM "Class" c WHERE c."institutionId" = i.id) AS classes
       FROM "Institution" i WHERE i."parentId" = $1 ORDER BY i."createdAt", i.id`,
    [network.id],
  );
  return { id: network.id, schools: rows };
}

const envOf = (url: string) => ({ ...process.env, DATABASE_URL: url, HUB_SECRET: secret, NODE_ENV: "production" as const });

async function main() {
  // This process writes through the hub's services and derives demo-app's pairwise ids: same secret.
  process.env.HUB_SECRET = secret;
  const { ensureBuilt } = (await import("../../scripts/lib/steps.mjs")) as { ensureBuilt: () => void };
  ensureBuilt();
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const built: TSize[] = [];
  const servers: ChildProcess[] = [];
  try {
    for (const [i, students] of sizes.entries()) built.push(await seedSize(admin, students, Number(values.port) + i));
    // Every size is measured with its own freshly started server, in turns with the others: the
    // sizes then differ by their data only, not by which ran first or how long a server has run.
    for (const s of built) servers.push(await startServer(s.port, envOf(s.url)));
    log("measuring every size in turns");
    const queries = onlyOneRoster ? built.map((): TQueryResult[] => []) : await measureSizes(built);
    const oneRoster = await measureOneRoster(built);
    const loadAverage = os.loadavg()[0]!;
    const steps: TStep[] = [];
    for (const [i, s] of built.entries()) {
      const walk = onlyOneRoster
        ? { status: 0, bytes: 0, events: 0, seconds: 0, eventsPerSecond: 0, idleRssMb: 0, peakRssMb: 0 }
        : await walkFeed({ agent, url: `${s.base}/manager/v1/data/${s.network.id}`, apiKey: KEY, pid: servers[i]!.pid! });
      if (!onlyOneRoster && walk.events !== s.facts.events) throw new Error(`the full walk returned ${walk.events} events of ${s.facts.events}`);
      if (!onlyOneRoster) log(`${s.students} students, walk: ${Math.round(walk.eventsPerSecond)} events/s, RSS ${walk.idleRssMb.toFixed(0)} idle / ${walk.peakRssMb.toFixed(0)} MB peak`);
      const step: TStep = { ...s.facts, students: s.students, loadAverage, queries: [...queries[i]!, ...oneRoster[i]!], walk };
      steps.push(step);
      console.log(`\n${stepTable(step)}\n`);
    }
    console.log(`\n${growthTable(steps)}\n`);
    if (!onlyOneRoster || process.argv.includes("--json")) writeFileSync(values.json!, `${JSON.stringify(steps, null, 2)}\n`);
    if (!onlyOneRoster || process.argv.includes("--plot")) writeFileSync(values.plot!, plot(steps));
    log(onlyOneRoster ? "OneRoster only: results printed above" : `wrote ${values.json} and ${values.plot}`);
    // Kept for bench/data-api/first-page.ts and EXPLAIN; at a million students they are gigabytes.
    const names = built.map((s) => new URL(s.url).pathname.slice(1));
    const mb = built.reduce((sum, s) => sum + s.facts.databaseMb, 0);
    log(`kept ${names.join(", ")} (${mb.toLocaleString("en")} MB); to drop them: ${names.map((n) => `DROP DATABASE ${n};`).join(" ")}`);
  } finally {
    for (const server of servers) server.kill("SIGTERM");
    agent.destroy();
    await Promise.all(built.map((s) => s.pool.end()));
    await admin.end();
  }
}

runToExit(main);
