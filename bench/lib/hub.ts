// A hub for a benchmark: the production build served by `node server.mjs` (as `npm start` runs it)
// on its own fresh database, seeded with the demo: a new PGlite directory, or with --pg a new
// PostgreSQL database beside the one DATABASE_URL names. The bench process reads the ids it
// needs before the server opens the database (PGlite allows one process at a time).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { rmSync } from "node:fs";
import path from "node:path";
import { serverSpawn } from "../../scripts/lib/server-command.mjs";

const root = path.resolve(import.meta.dirname, "..", "..");
export const BENCH_SECRET = "bench-secret-bench-secret-bench-secret-0123";

export interface TBenchHub {
  base: string;
  engine: "pglite" | "postgres";
  env: Record<string, string>;
  server: ChildProcess;
  stop(): Promise<void>;
}

export type TDatabaseEngine = "pglite" | "postgres";

/** The bench's environment for a child: PGlite when `env` names no DATABASE_URL. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete merged.DATABASE_URL;
  return merged;
}

function sh(cmd: string, args: string[], env: Record<string, string>): void {
  const result = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: childEnv(env) });
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(" ")} failed (${result.status})`);
}

/** Environment of a fresh, migrated and seeded database for `name`. */
export function prepareDatabase(name: string, engine: TDatabaseEngine, port: number): Record<string, string> {
  const env: Record<string, string> = {
    NODE_ENV: "production", PORT: String(port), HUB_BASE_URL: `http://localhost:${port}`, HUB_SECRET: BENCH_SECRET,
    NEXT_TELEMETRY_DISABLED: "1", DEMO_TOOL: "1",
  };
  if (engine === "postgres") env.DATABASE_URL = freshDatabase(name, engine);
  else env.HUB_DATA_DIR = freshDatabase(name, engine);
  sh("npx", ["tsx", "scripts/prepare-db.ts"], env);
  return env;
}

/**
 * An empty database for `name`: with postgres, `hub_bench_{name}` (re)created beside the one
 * DATABASE_URL names, as a URL; with pglite, an emptied directory under .tmp/bench.
 */
export function freshDatabase(name: string, engine: TDatabaseEngine): string {
  if (engine === "pglite") {
    const dir = path.join(root, ".tmp", "bench", name);
    rmSync(dir, { recursive: true, force: true });
    return dir;
  }
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("--pg needs DATABASE_URL=postgresql://… (the bench creates its own database beside it)");
  const target = new URL(url);
  target.pathname = `/hub_bench_${name}`;
  sh("npx", ["tsx", "scripts/sql.ts", url, `DROP DATABASE IF EXISTS hub_bench_${name} WITH (FORCE)`], {});
  sh("npx", ["tsx", "scripts/sql.ts", url, `CREATE DATABASE hub_bench_${name}`], {});
  return target.toString();
}

/** BENCH_PROFILE_DIR=dir: node's flags for a server that writes a CPU profile there when the bench stops it. */
export const profileArgs = (): string[] => (process.env.BENCH_PROFILE_DIR ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : []);

/**
 * Starts server.mjs on the prepared database and waits for /healthz; `cwd`: another checkout's
 * build (bench/hot-routes/ab.ts), this one's by default.
 */
export async function startHub(env: Record<string, string>, cwd: string = root): Promise<TBenchHub> {
  // The access log is written as in production; to /dev/null, so the bench's pipe costs nothing.
  const server = spawnChild(...serverSpawn(childEnv(env), { cwd, stdio: ["ignore", "ignore", "inherit"] }, ...profileArgs()));
  const base = env.HUB_BASE_URL!;
  for (let i = 0; i < 240; i++) {
    if (server.exitCode !== null) throw new Error(`server.mjs exited with ${server.exitCode}`);
    const ok = await fetch(`${base}/healthz`).then((r) => r.ok, () => false);
    if (ok) {
      return {
        base, env, server, engine: env.DATABASE_URL ? "postgres" : "pglite",
        stop: () => stopChild(server),
      };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("server.mjs did not answer /healthz within 60 s");
}

/** Waits until `url` answers (any status: the server is listening), at most 10 s. */
export async function waitForAnswer(url: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await fetch(url).then(() => true, () => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within 10 s`);
}

/** Children a bench started: killed when it exits, even on a failure. */
const children = new Set<ChildProcess>();
process.on("exit", () => {
  for (const child of children) if (child.exitCode === null) child.kill("SIGKILL");
});

/** Spawns a child that is killed with the bench. */
export function spawnChild(...args: Parameters<typeof spawn>): ChildProcess {
  const child = spawn(...args);
  children.add(child);
  return child;
}

export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}
