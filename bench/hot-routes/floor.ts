// What the two floors of bench/hot-routes share: the servers' access log, written as the hub writes
// it, and the runners' repetitions and tables.
import type pg from "pg";
import { ACCESS_LOG_INSERT_SQL } from "@/lib/server/audit/access-log-sql";
import { loadAverage, type TLoadResult } from "../lib/load";

/**
 * The hub's access log on `pool`: rows queued and written with the hub's own statement, one
 * statement per 5 ms (lib/server/audit/log-access.ts).
 */
export function accessLogWriter(pool: pg.Pool): (row: object) => void {
  let queue: object[] = [];
  let timer: NodeJS.Timeout | undefined;
  const flush = () => {
    timer = undefined;
    const rows = queue;
    queue = [];
    pool.query({ name: "access_log", text: ACCESS_LOG_INSERT_SQL, values: [JSON.stringify(rows)] }).catch((error: unknown) => console.error(error));
  };
  return (row) => {
    queue.push(row);
    timer ??= setTimeout(flush, 5);
  };
}

/** The head of a repetition's table: `rate` (req/s, exchanges/s), what CPU is counted per, the baseline's name. */
function printTableHead(rate: string, per: string, baseline: string): void {
  console.log(`| server | conns | ${rate} | p50 ms | p99 ms | CPU ms per ${per} (server + PostgreSQL) | ÷ ${baseline} |`);
  console.log("|---|---:|---:|---:|---:|---|---:|");
}

/** One row per result, each against the last one (the baseline). */
function printRows(results: TLoadResult[], connections: number): void {
  const baseline = results.at(-1)!.rps;
  for (const r of results) {
    const cpu = r.cpuMs ? `${r.cpuMs.server.toFixed(3)}${r.cpuMs.postgres !== undefined ? ` + ${r.cpuMs.postgres.toFixed(3)}` : ""}` : "";
    const odd = r.unexpected ? ` (${r.unexpected} unexpected: ${JSON.stringify(r.statuses)})` : "";
    console.log(`| ${r.label}${odd} | ${connections} | ${r.rps.toFixed(0)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${cpu} | ${(r.rps / baseline).toFixed(2)}× |`);
  }
}

/**
 * `reps` repetitions, each a table of every target at 1 connection, then at 8, in turns: `rate`
 * (req/s, exchanges/s) and what CPU is counted per; the last target is the baseline, named `baseline`.
 */
export async function printRepetitions<T>(options: {
  reps: number;
  targets: readonly T[];
  run: (target: T, connections: number) => Promise<TLoadResult>;
  rate: string;
  per: string;
  baseline: string;
}): Promise<void> {
  for (let rep = 1; rep <= options.reps; rep++) {
    console.log(`\nrepetition ${rep} (load average ${loadAverage()})\n`);
    printTableHead(options.rate, options.per, options.baseline);
    for (const connections of [1, 8]) {
      const results: TLoadResult[] = [];
      for (const target of options.targets) results.push(await options.run(target, connections));
      printRows(results, connections);
    }
  }
}
