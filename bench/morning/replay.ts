// Replays people's paths against one target, `conns` at a time, and measures them: each step's
// latencies, the whole pass's wall time and its servers' CPU (cpu.ts: the target's processes and
// the PostgreSQL backends of the bench's databases), and with `perStepCpu` (one at a time) each
// step's CPU, read around each request after the servers settle (their deferred writes, such as
// the access log's 5 ms batches, land in the step that queued them).
import { setTimeout as sleep } from "node:timers/promises";
import { loadAverage, percentile } from "../lib/load";
import { cpuMeter, cpuReader } from "./cpu";
import { StepError, type TStep, type TTimer } from "./path";

export interface TStepStats {
  latencies: number[];
  /** One at a time only: CPU ms summed over the step's requests (server processes; PostgreSQL's). */
  cpu?: { server: number; postgres: number };
}

export interface TPass {
  target: string;
  conns: number;
  people: number;
  failures: string[];
  wallSeconds: number;
  /** Wall time of the requests alone (one at a time: without the pauses for the servers to settle). */
  activeSeconds: number;
  /** CPU ms over the whole pass: the target's processes, and its PostgreSQL backends. */
  cpuMs: { server: number; postgres: number };
  steps: Map<TStep, TStepStats>;
  load: string;
}

export interface TReplayOptions<P> {
  target: string;
  people: readonly P[];
  conns: number;
  /** The target's server processes, and the PostgreSQL databases whose backends count too (none on PGlite). */
  pids: number[];
  databases: string[];
  /** Read CPU around each request (conns must be 1), pausing `settleMs` after each answer. */
  perStepCpu?: { settleMs: number };
  path: (person: P, time: TTimer) => Promise<void>;
}

export async function replay<P>(options: TReplayOptions<P>): Promise<TPass> {
  if (options.perStepCpu && options.conns !== 1) throw new Error("CPU per step needs one at a time");
  const steps = new Map<TStep, TStepStats>();
  const stats = (step: TStep) => {
    let s = steps.get(step);
    if (!s) steps.set(step, (s = { latencies: [], ...(options.perStepCpu ? { cpu: { server: 0, postgres: 0 } } : {}) }));
    return s;
  };
  const reader = options.perStepCpu ? cpuReader(options.pids, options.databases) : undefined;
  let paused = 0;
  const time: TTimer = async (step, run) => {
    const s = stats(step);
    if (!reader) {
      const started = performance.now();
      const result = await run();
      s.latencies.push(performance.now() - started);
      return result;
    }
    const before = reader.read();
    const started = performance.now();
    const result = await run();
    s.latencies.push(performance.now() - started);
    const pauseStart = performance.now();
    await sleep(options.perStepCpu!.settleMs);
    const after = reader.read();
    paused += performance.now() - pauseStart;
    const used = reader.delta(before, after);
    s.cpu!.server += used.server;
    s.cpu!.postgres += used.postgres;
    return result;
  };
  const failures: string[] = [];
  const meter = cpuMeter(options.pids, options.databases);
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < options.people.length; i = next++) {
      try {
        await options.path(options.people[i]!, time);
      } catch (error) {
        if (!(error instanceof StepError)) throw error;
        failures.push(error.message);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(options.conns, options.people.length) }, worker));
  const wall = (performance.now() - started) / 1000;
  const cpuMs = meter.stop();
  return {
    target: options.target,
    conns: options.conns,
    people: options.people.length,
    failures,
    wallSeconds: wall,
    activeSeconds: wall - paused / 1000,
    cpuMs,
    steps,
    load: loadAverage(),
  };
}


/** p50 and p99 of a step's latencies, in ms. */
export function quantiles(latencies: number[]): { p50: number; p99: number } {
  const sorted = [...latencies].sort((a, b) => a - b);
  return { p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
}
