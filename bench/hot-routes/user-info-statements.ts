// bench/hot-routes/user-info-statements.ts: PostgreSQL's CPU per execution of user info's statements
// beside the floor's token row (docs/performance.md, "User info against its floor"). One connection,
// each prepared statement executed --n times after 500 untimed, the CPU of that connection's backend
// read from /proc/<pid>/stat before and after: the figure is PostgreSQL's work for the statement
// alone, whatever else the machine runs (the benches' "PostgreSQL" column adds up every postgres
// process). Needs PostgreSQL on this machine and a database the hub migrated and seeded, with at
// least one access token (a bench database after user-info-floor.ts, for instance):
//
//   npx tsx bench/hot-routes/user-info-statements.ts postgresql://…/hub_bench_uifloor [--n 20000]
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import pg from "pg";
import { RECORD_SQL } from "@/lib/server/oauth/get-user-info";
import { FRESH_SQL } from "@/lib/server/oauth/user-info-sql";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { n: { type: "string", default: "20000" }, passes: { type: "string", default: "2" } } });
const url = positionals[0];
if (!url) throw new Error("usage: user-info-statements.ts postgresql://…/<a migrated hub database> [--n 20000]");
const client = new pg.Client({ connectionString: url });
await client.connect();
const pid = ((await client.query("SELECT pg_backend_pid() AS pid")).rows[0] as { pid: number }).pid;
/** utime + stime of the backend, in clock ticks (10 ms). */
const ticks = () => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return Number(fields[11]) + Number(fields[12]);
};
const { jti } = (await client.query(`SELECT jti FROM "AccessToken" ORDER BY "createdAt" DESC LIMIT 1`)).rows[0] as { jti: string };
const now = new Date().toISOString();
const { stamp } = ((await client.query({ text: RECORD_SQL, values: [jti, now] })).rows[0] as { record: { stamp: string } }).record;
const statements: Record<string, [string, unknown[]]> = {
  "SELECT $1": ["SELECT $1::text", ["x"]],
  "the floor's token row": [`SELECT "applicationId", "profileId", "revokedAt", "expiresAt" FROM "AccessToken" WHERE jti = $1`, [jti]],
  "FRESH_SQL (a kept answer)": [FRESH_SQL, [jti, stamp, now]],
  "RECORD_SQL (no kept answer)": [RECORD_SQL, [jti, now]],
};
const n = Number(values.n);
console.log(`PostgreSQL CPU per execution, ${n} executions each (±${(10_000 / n / 2).toFixed(1)} µs)\n`);
console.log("| pass | statement | µs |\n|---:|---|---:|");
for (let pass = 1; pass <= Number(values.passes); pass++) {
  for (const [label, [text, args]] of Object.entries(statements)) {
    const query = { name: `s${Object.keys(statements).indexOf(label)}`, text, values: args };
    for (let i = 0; i < 500; i++) await client.query(query);
    const before = ticks();
    for (let i = 0; i < n; i++) await client.query(query);
    console.log(`| ${pass} | ${label} | ${(((ticks() - before) * 10_000) / n).toFixed(1)} |`);
  }
}
await client.end();
