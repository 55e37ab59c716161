// A PostgreSQL streaming replica of the test cluster, made with PostgreSQL's own tools: a base
// backup (pg_basebackup -R: standby.signal and primary_conninfo written for us) into a temporary
// directory, started with pg_ctl in hot standby on a free port, stopped and removed afterwards.
// Only where DATABASE_URL names a server: PGlite has no server to replicate.
// Runs the tools as the `postgres` OS user when the tests run as root (CI runs .ci/run as root;
// PostgreSQL refuses to run as root). Debian keeps the binaries under /usr/lib/postgresql/<v>/bin.
import { execFile, execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync, chownSync, chmodSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { promisify } from "node:util";
import pg from "pg";

const run = promisify(execFile);

export interface TestReplica {
  /** `url` (a database of the primary) with the replica's port. */
  urlFor(url: string): string;
  /** Runs one statement on the replica as the superuser of `url` (pg_wal_replay_pause(), ...). */
  query<T = Record<string, unknown>>(url: string, sql: string): Promise<T[]>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The directory of PostgreSQL's server binaries of the primary's major version. */
function binaries(major: string): string {
  const debian = `/usr/lib/postgresql/${major}/bin`;
  return existsSync(path.join(debian, "pg_ctl")) ? debian : "";
}

/** Starts a hot standby of the server `adminUrl` names and waits until it accepts reads. */
export async function startReplica(adminUrl: string): Promise<TestReplica> {
  const primary = new URL(adminUrl);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // A standby needs these at least as high as its primary's.
  const settings = ["max_connections", "max_worker_processes", "max_wal_senders", "max_prepared_transactions", "max_locks_per_transaction", "server_version_num"];
  const values = new Map<string, string>();
  for (const name of settings) values.set(name, String((await admin.query<{ v: string }>(`SELECT current_setting('${name}') AS v`)).rows[0]!.v));
  await admin.end();
  const major = String(Math.floor(Number(values.get("server_version_num")) / 10000));
  const bin = binaries(major);
  const tool = (name: string) => (bin ? path.join(bin, name) : name);

  const asRoot = process.getuid?.() === 0;
  const dir = mkdtempSync(path.join(tmpdir(), "hub-replica-"));
  const data = path.join(dir, "data");
  if (asRoot) chownSync(dir, ...ids("postgres"));
  chmodSync(dir, 0o700);
  const exec = async (file: string, args: string[], env: Record<string, string> = {}) => {
    const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", "env", ...Object.entries(env).map(([k, v]) => `${k}=${v}`), file, ...args]] : [file, args];
    return run(cmd, argv, { cwd: dir, env: { ...process.env, ...env }, timeout: 300_000, maxBuffer: 16 * 1024 * 1024 });
  };

  const port = await freePort();
  await exec(tool("pg_basebackup"), ["-h", primary.hostname, "-p", primary.port || "5432", "-U", decodeURIComponent(primary.username), "-D", data, "-R", "-X", "stream", "--checkpoint=fast"], {
    PGPASSWORD: decodeURIComponent(primary.password),
  });
  // Debian keeps the configuration outside the data directory: the copy has none of it.
  const conf = [
    `port = ${port}`,
    `listen_addresses = 'localhost'`,
    `unix_socket_directories = '${dir}'`,
    "hot_standby = on",
    // Vacuum on the primary does not remove rows a replica's read still needs: no cancelled reads.
    "hot_standby_feedback = on",
    "fsync = off",
    ...settings.filter((s) => s !== "server_version_num").map((s) => `${s} = ${values.get(s)}`),
  ];
  const write = (name: string, text: string) => {
    const file = path.join(data, name);
    writeFileSync(file, text);
    if (asRoot) chownSync(file, ...ids("postgres"));
  };
  write("postgresql.conf", `${conf.join("\n")}\n`);
  write("pg_hba.conf", "local all all trust\nhost all all 127.0.0.1/32 scram-sha-256\nhost all all ::1/128 scram-sha-256\n");
  write("pg_ident.conf", "");
  await exec(tool("pg_ctl"), ["-D", data, "-l", path.join(dir, "log"), "-w", "-t", "120", "start"]);

  const urlFor = (url: string) => {
    const u = new URL(url);
    u.hostname = "127.0.0.1";
    u.port = String(port);
    return u.toString();
  };
  const query = async <T,>(url: string, sql: string): Promise<T[]> => {
    const c = new pg.Client({ connectionString: urlFor(url) });
    await c.connect();
    try {
      return (await c.query(sql)).rows as T[];
    } finally {
      await c.end();
    }
  };
  // Ready when it answers in recovery.
  for (let i = 0; ; i++) {
    try {
      const [row] = await query<{ r: boolean }>(adminUrl, "SELECT pg_is_in_recovery() AS r");
      if (row?.r) break;
    } catch (error) {
      if (i > 120) throw error;
    }
    await sleep(250);
  }
  return {
    urlFor,
    query,
    stop: async () => {
      await exec(tool("pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function ids(user: string): [number, number] {
  // `id` is everywhere the tools are; no dependency for getpwnam.
  const uid = Number(execFileSync("id", ["-u", user]).toString().trim());
  const gid = Number(execFileSync("id", ["-g", user]).toString().trim());
  return [uid, gid];
}
