// Load and measurement helpers shared by the benches: autocannon runs with a request per
// pre-minted credential, RSS sampling of a process, the load average, and the tables.
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import autocannon from "autocannon";

export interface TLoadResult {
  label: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Answers other than the expected status, by status. */
  unexpected: number;
  statuses: Record<number, number>;
  /** CPU per answer, in ms, of the processes the spec named (`cpuOf`), over the run. */
  cpuMs?: { server: number; postgres?: number };
}

export interface TLoadSpec {
  label: string;
  url: string;
  connections: number;
  method?: "GET" | "POST" | "OPTIONS";
  headers?: Record<string, string>;
  /** A fixed body, or one per request (each credential used once); with `bodies`, amount = bodies.length. */
  body?: string;
  bodies?: string[];
  /** Headers per request, like `bodies` (e.g. HTTP Basic with a code in the body). */
  expectStatus?: number;
  durationSeconds?: number;
  /** The server's pid, and whether to count PostgreSQL's processes too: their CPU per answer in the result. */
  cpuOf?: { pid: number; postgres?: boolean };
}

function statFields(pid: number | string): string[] {
  // After the command's closing parenthesis: state is field 0, ppid 1, utime 11, stime 12, cutime 13, cstime 14.
  return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
}

/** CPU seconds a process has used (user + system, all its threads; Linux /proc, 100 ticks a second). */
export function cpuSeconds(pid: number): number {
  const fields = statFields(pid);
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds used by PostgreSQL on this machine: its processes alive now, and those that ended
 * (a backend whose connection closed), which the postmaster counts among its children's time
 * once it has reaped them.
 */
export function postgresCpuSeconds(): number {
  const processes: Array<{ pid: string; ppid: string; fields: string[] }> = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, "utf8").startsWith("postgres")) {
        const fields = statFields(entry);
        processes.push({ pid: entry, ppid: fields[1]!, fields });
      }
    } catch {
      // The process ended between listing and reading.
    }
  }
  const pids = new Set(processes.map((p) => p.pid));
  let ticks = 0;
  for (const { ppid, fields } of processes) {
    ticks += Number(fields[11]) + Number(fields[12]);
    // The postmaster (its parent is not a postgres process): its reaped children's time too.
    if (!pids.has(ppid)) ticks += Number(fields[13]) + Number(fields[14]);
  }
  return ticks / 100;
}

/** The `p` quantile (0–1) of `sorted`, ascending; NaN when it is empty. */
export const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

/**
 * Runs one load with autocannon and measures it from its own events: latency of every answer to
 * the microsecond (autocannon's histogram keeps whole milliseconds), req/s over the wall time,
 * answers with another status than the expected one counted apart (and left out of the latencies).
 */
export async function runLoad(spec: TLoadSpec): Promise<TLoadResult> {
  const bodies = spec.bodies;
  let next = 0;
  const expected = spec.expectStatus ?? 200;
  let unexpected = 0;
  const statuses: Record<number, number> = {};
  const latencies: number[] = [];
  const cpuBefore = spec.cpuOf && { server: cpuSeconds(spec.cpuOf.pid), postgres: spec.cpuOf.postgres ? postgresCpuSeconds() : 0 };
  const started = performance.now();
  let instance: autocannon.Instance | undefined;
  const done = new Promise<autocannon.Result>((resolve, reject) => {
    instance = autocannon({
    url: spec.url,
    connections: spec.connections,
    method: spec.method ?? "GET",
    headers: spec.headers,
    body: spec.body,
    ...(bodies ? { amount: bodies.length } : { duration: spec.durationSeconds ?? 5 }),
    requests: [{ setupRequest: (request) => (bodies ? { ...request, body: bodies[next++ % bodies.length] } : request) }],
    }, (error, result) => (error ? reject(error) : resolve(result)));
  });
  // The last answer's time, not the run's end: autocannon ends a run on its next 1 s tick.
  let lastAnswer = started;
  instance!.on("response", (_client, status, _bytes, ms) => {
    lastAnswer = performance.now();
    if (status === expected) latencies.push(ms);
    else {
      unexpected++;
      statuses[status] = (statuses[status] ?? 0) + 1;
    }
  });
  const result = await done;
  const seconds = (lastAnswer - started) / 1000;
  const answers = latencies.length + unexpected;
  const cpuMs =
    spec.cpuOf && cpuBefore && answers > 0
      ? {
          server: ((cpuSeconds(spec.cpuOf.pid) - cpuBefore.server) * 1000) / answers,
          ...(spec.cpuOf.postgres ? { postgres: ((postgresCpuSeconds() - cpuBefore.postgres) * 1000) / answers } : {}),
        }
      : undefined;
  latencies.sort((a, b) => a - b);
  return {
    label: spec.label,
    connections: spec.connections,
    requests: latencies.length + unexpected,
    rps: (latencies.length + unexpected) / seconds,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    errors: result.errors + result.timeouts,
    unexpected,
    statuses,
    ...(cpuMs ? { cpuMs } : {}),
  };
}

/** Resident set size of a process, in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

export class RssSampler {
  readonly samples: Array<{ at: number; mb: number }> = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly started = Date.now();
  constructor(private readonly pid: number, everyMs = 500) {
    this.timer = setInterval(() => this.sample(), everyMs);
    this.sample();
  }
  sample(): number {
    const mb = rssMb(this.pid);
    this.samples.push({ at: (Date.now() - this.started) / 1000, mb });
    return mb;
  }
  stop(): { first: number; max: number; last: number } {
    clearInterval(this.timer);
    const last = this.sample();
    return { first: this.samples[0]!.mb, max: Math.max(...this.samples.map((s) => s.mb)), last };
  }
}

export const loadAverage = (): string => os.loadavg().map((l) => l.toFixed(2)).join(" / ");

export function machineLine(): string {
  return `${os.cpus().length} cores (${os.cpus()[0]?.model ?? "?"}), Node ${process.version}, load average ${loadAverage()}`;
}

const fmt = (n: number, digits = 0) => n.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: digits });

/**
 * One markdown row per path: the hub beside its peer or floor, with the ratio of throughputs, and
 * beside a second configuration of the peer when the rows have one (`names` heads the columns).
 */
export function pairTable(rows: TPairRow[], names: { peer: string; peer2?: string } = { peer: "peer" }): string {
  const second = rows.some((r) => r.peer2) ? (names.peer2 ?? "peer 2") : null;
  const side = (name: string) => `${name} req/s | p50 ms | p99 ms | ratio`;
  const lines = [
    `| path | conns | hub req/s | p50 ms | p99 ms | ${side(names.peer)} |${second ? ` ${side(second)} |` : ""} errors hub / peers |`,
    `|---|---:|---:|---:|---:|---:|---:|---:|---:|${second ? "---:|---:|---:|---:|" : ""}---:|`,
  ];
  const cells = (hub: TLoadResult, peer: TLoadResult) =>
    `${fmt(peer.rps)} | ${fmt(peer.p50, 1)} | ${fmt(peer.p99, 1)} | **${fmt(hub.rps / peer.rps, 2)}×**`;
  for (const { path, hub, peer, peer2 } of rows) {
    const bad = [hub, peer, ...(peer2 ? [peer2] : [])].map((r) => r.errors + r.unexpected).join(" / ");
    lines.push(
      `| ${path} | ${hub.connections} | ${fmt(hub.rps)} | ${fmt(hub.p50, 1)} | ${fmt(hub.p99, 1)} | ${cells(hub, peer)} |${peer2 ? ` ${cells(hub, peer2)} |` : ""} ${bad} |`,
    );
  }
  return lines.join("\n");
}

export type TPairRow = { path: string; hub: TLoadResult; peer: TLoadResult; peer2?: TLoadResult };

/** One repetition's table, then the runs that had unexpected answers, by status. */
export function printRepetition(rows: TPairRow[], names?: { peer: string; peer2?: string }): void {
  console.log(pairTable(rows, names));
  const cpu = cpuTable(rows, names);
  if (cpu) console.log(`\n${cpu}`);
  for (const r of rows.flatMap((row) => [row.hub, row.peer, ...(row.peer2 ? [row.peer2] : [])])) {
    if (r.unexpected) console.log(`  ${r.label} (${r.connections}): unexpected answers ${JSON.stringify(r.statuses)}`);
  }
}

/**
 * CPU per answer of each server in the rows (and of PostgreSQL, when measured), in ms: what the
 * throughputs are made of on a machine whose cores the servers, the database and the load
 * generator share. Nothing when no run measured CPU.
 */
export function cpuTable(rows: TPairRow[], names: { peer: string; peer2?: string } = { peer: "peer" }): string {
  if (!rows.some((r) => r.hub.cpuMs)) return "";
  const cell = (r: TLoadResult | undefined) => (r?.cpuMs ? `${fmt(r.cpuMs.server, 2)}${r.cpuMs.postgres !== undefined ? ` + ${fmt(r.cpuMs.postgres, 2)}` : ""}` : "");
  const second = rows.some((r) => r.peer2) ? (names.peer2 ?? "peer 2") : null;
  const lines = [
    `| CPU ms per answer (server + PostgreSQL) | conns | hub | ${names.peer} |${second ? ` ${second} |` : ""}`,
    `|---|---:|---:|---:|${second ? "---:|" : ""}`,
  ];
  for (const { path, hub, peer, peer2 } of rows) lines.push(`| ${path} | ${hub.connections} | ${cell(hub)} | ${cell(peer)} |${second ? ` ${cell(peer2)} |` : ""}`);
  return lines.join("\n");
}

/** Stops the sampler and prints the server's RSS over the whole bench. */
export function printRss(sampler: RssSampler): void {
  const memory = sampler.stop();
  console.log(`\nhub RSS: ${memory.first} MB at the start, ${memory.max} MB at most, ${memory.last} MB at the end; load average ${loadAverage()}`);
}
