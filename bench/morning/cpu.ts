// CPU time of the processes serving a step, to the nanosecond: the sum of every thread's
// sum_exec_runtime (/proc/PID/task/*/schedstat) of the servers, and of the PostgreSQL backends
// connected to the bench's own databases. bench/lib/load.ts reads processes in clock ticks (10 ms)
// and counts every PostgreSQL process of the cluster; here one request takes a few milliseconds,
// and the machine's PostgreSQL also serves other people's databases (their work would land in
// the bench's figures), so this reads only the backends whose title names one of `databases`.
// Left out with them: PostgreSQL's own background processes (WAL writer, checkpointer, autovacuum).
import { readdirSync, readFileSync } from "node:fs";

/** The process's threads' CPU time in ns; null when it has ended. */
function threadNanoseconds(pid: number | string): number | null {
  let sum = 0;
  let tasks: string[];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return null;
  }
  for (const task of tasks) {
    try {
      sum += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, "utf8").split(" ")[0]);
    } catch {
      // the thread ended between listing and reading
    }
  }
  return sum;
}

/** The PostgreSQL backends connected to one of `databases` (their process title: "postgres: 15/main: user database host …"). */
function backendsOf(databases: string[]): string[] {
  if (databases.length === 0) return [];
  const pids: string[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/comm`, "utf8").startsWith("postgres")) continue;
      const title = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (databases.some((db) => title.includes(` ${db} `))) pids.push(entry);
    } catch {
      // ended meanwhile
    }
  }
  return pids;
}

export interface TCpuSnapshot {
  server: number;
  postgres: Map<string, number>;
}

export interface TCpuUsed {
  /** ms */
  server: number;
  /** ms */
  postgres: number;
}

/**
 * A reader of `pids`' CPU and of the backends of `databases`: `delta` gives the ms between two
 * snapshots. The backends are listed afresh at each snapshot; one that started in between counts
 * whole (its life is inside the interval), one that ended in between is left out (pools keep theirs
 * open: the meter below samples often enough to lose little of it).
 */
export function cpuReader(pids: number[], databases: string[]) {
  const read = (): TCpuSnapshot => {
    const postgres = new Map<string, number>();
    for (const pid of backendsOf(databases)) {
      const ns = threadNanoseconds(pid);
      if (ns !== null) postgres.set(pid, ns);
    }
    return { server: pids.reduce((sum, pid) => sum + (threadNanoseconds(pid) ?? 0), 0), postgres };
  };
  const delta = (before: TCpuSnapshot, after: TCpuSnapshot): TCpuUsed => {
    let postgres = 0;
    for (const [pid, ns] of after.postgres) postgres += ns - (before.postgres.get(pid) ?? 0);
    return { server: (after.server - before.server) / 1e6, postgres: postgres / 1e6 };
  };
  return { read, delta };
}

/**
 * The CPU used over a whole pass, sampled every `everyMs` so that a backend which closes meanwhile
 * (a pool's idle connection) keeps the time it had at its last sample.
 */
export function cpuMeter(pids: number[], databases: string[], everyMs = 250): { stop(): TCpuUsed } {
  const reader = cpuReader(pids, databases);
  const first = reader.read();
  const last = new Map(first.postgres);
  let lastServer = first.server;
  const sample = () => {
    const now = reader.read();
    lastServer = now.server;
    for (const [pid, ns] of now.postgres) last.set(pid, ns);
  };
  const timer = setInterval(sample, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      let postgres = 0;
      for (const [pid, ns] of last) postgres += ns - (first.postgres.get(pid) ?? 0);
      return { server: (lastServer - first.server) / 1e6, postgres: postgres / 1e6 };
    },
  };
}
