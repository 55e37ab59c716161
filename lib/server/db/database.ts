// The one place that knows which database engine runs: embedded PGlite under HUB_DATA_DIR by
// default, PostgreSQL when DATABASE_URL is set. Everything else gets a PrismaClient and, for the
// few raw-SQL paths, a SqlDriver.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { pgliteDriver, postgresDriver, type SqlDriver } from "@/lib/server/db/driver";
import { ReleasingPrismaPg } from "@/lib/server/db/prisma-pg";
import { describeDatabaseError } from "@/lib/server/db/unavailable";
import { laggingReader, ReplicaSet } from "@/lib/server/db/replicas";
import { observePool, registerReplicaLagSource } from "@/lib/server/metrics/registry.mjs";

export interface Database {
  prisma: PrismaClient;
  sql: SqlDriver;
  close(): Promise<void>;
  /** The read replicas of this primary (PostgreSQL with DATABASE_REPLICA_URL), if any. */
  replicas?: ReplicaSet;
}

export interface DatabaseOptions {
  /** postgresql:// URL; when absent the embedded engine is used. */
  url?: string;
  /** PGlite data directory; "memory://" keeps it in memory (tests). */
  dataDir?: string;
  /** PGlite: start from this dump of a data directory (PGlite's dumpDataDir) instead of an empty one (tests). */
  loadDataDir?: Blob;
  /** PostgreSQL: how long to wait for a connection, new or from the pool (default HUB_DB_CONNECT_TIMEOUT_MS). */
  connectTimeoutMs?: number;
  /** PostgreSQL: the longest statement (default HUB_DB_STATEMENT_TIMEOUT_MS); 0 = no limit (migrations, bulk seeds). */
  statementTimeoutMs?: number;
  /** PostgreSQL: the pool's name in the metrics (hub_db_pool_*, docs/operations.md); an unnamed pool is not counted. */
  poolName?: string;
  /** PostgreSQL: streaming replicas of `url` that reads which may lag can use (docs/decisions/042). */
  replicaUrls?: string[];
  /** With replicaUrls: a replica further behind than this is not read (default HUB_REPLICA_MAX_LAG_MS). */
  maxReplicaLagMs?: number;
  /** With replicaUrls: how often the primary's beat is written and the replicas' lag read (ms, default 1000). */
  replicaBeatMs?: number;
}

/**
 * How long the client itself waits for an answer beyond the server's statement_timeout: the
 * server cancels a slow statement first (the connection stays usable); only a server or network
 * that stopped answering altogether reaches the client's query_timeout (docs/decisions/010).
 */
const CLIENT_MARGIN_MS = 5_000;

/**
 * The PostgreSQL pool. Every setting answers a fault seen in practice: a database that accepts
 * connections and never answers (connect timeout), a statement or connection that hangs
 * (statement and query timeouts), a restart that kills idle connections (the `error` handler:
 * without it, pg's pool rethrows the error as an uncaughtException; the error carries the whole
 * client object, so it is logged as one line, never as an object).
 */
function createPool(url: string, options: DatabaseOptions): pg.Pool {
  const e = env();
  const statementTimeoutMs = options.statementTimeoutMs ?? e.HUB_DB_STATEMENT_TIMEOUT_MS;
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    // No JIT compilation: the hub's statements read a page of index entries, and PostgreSQL's
    // estimate for a large history crosses jit_above_cost on plans that run in a few milliseconds,
    // then spends 20–90 ms compiling them (a OneRoster page at a million students: 62 ms, 24 of
    // them JIT; docs/performance.md "OneRoster"). Set per connection, so the server's own default
    // is left alone for anything else that uses it.
    options: "-c jit=off",
    connectionTimeoutMillis: options.connectTimeoutMs ?? e.HUB_DB_CONNECT_TIMEOUT_MS,
    ...(statementTimeoutMs > 0 ? { statement_timeout: statementTimeoutMs, query_timeout: statementTimeoutMs + CLIENT_MARGIN_MS } : {}),
  });
  pool.on("error", (error) => {
    console.warn(`Database connection lost while idle (${describeDatabaseError(error)}); the pool opens a new one when needed`);
  });
  if (options.poolName) observePool(options.poolName, pool);
  return pool;
}

/**
 * PGlite's own start parameters, and shared_buffers at 16 MB instead of PostgreSQL's 128 MB:
 * PGlite writes its whole buffer pool into the WebAssembly heap when it opens, so the default
 * costs about 120 MB of resident memory for good (measured on opening the bench's database:
 * 292 MB at 128 MB, 192 at 32, 172 at 16; the served hub under bench/memory's mix peaked at 525,
 * 411 and 380 MB). The embedded database's working set fits the smaller pool, and its files stay
 * in the OS page cache besides (docs/performance.md, "Memory").
 */
const PGLITE_START_PARAMS = [...PGlite.defaultStartParams, "-c", "shared_buffers=16MB"];

export function createDatabase(options: DatabaseOptions): Database {
  if (options.url) {
    const pool = createPool(options.url, options);
    const prisma = new PrismaClient({ adapter: new ReleasingPrismaPg(pool) });
    const sql = postgresDriver(pool);
    const primary: Database = { prisma, sql, close: async () => { await replicas?.close(); await prisma.$disconnect(); await sql.close(); } };
    const urls = options.replicaUrls ?? [];
    const replicas = urls.length
      ? new ReplicaSet(
          primary,
          urls.map((url, i) => {
            // Named in the metrics by position and host, never by the URL (it holds the password).
            const name = `replica${i + 1}-${new URL(url).host}`;
            const replicaPool = createPool(url, { ...options, poolName: options.poolName ? name : undefined });
            const replicaPrisma = new PrismaClient({ adapter: new ReleasingPrismaPg(replicaPool) });
            const replicaSql = postgresDriver(replicaPool);
            return { name, db: { prisma: replicaPrisma, sql: replicaSql, close: async () => { await replicaPrisma.$disconnect(); await replicaSql.close(); } } };
          }),
          { maxLagMs: options.maxReplicaLagMs ?? env().HUB_REPLICA_MAX_LAG_MS, beatMs: options.replicaBeatMs ?? 1000 },
        )
      : undefined;
    if (replicas) primary.replicas = replicas;
    return primary;
  }
  const dir = options.dataDir ?? "memory://";
  if (dir !== "memory://") mkdirSync(dir, { recursive: true });
  const client = new PGlite({ ...(dir === "memory://" ? {} : { dataDir: dir }), ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}), startParams: PGLITE_START_PARAMS });
  const prisma = new PrismaClient({ adapter: new PrismaPGlite(client) });
  const sql = pgliteDriver(client);
  return { prisma, sql, close: async () => { await prisma.$disconnect(); await sql.close(); } };
}

export function pgliteDataDir(): string {
  return path.resolve(env().HUB_DATA_DIR, "pglite");
}

// One instance per process, kept on globalThis so Next's dev reloads do not open a second
// PGlite on the same directory (create-t3-app's db singleton).
const globalForDb = globalThis as unknown as { hubDatabase?: Database };

/** The database the environment configures: DATABASE_URL, or PGlite under HUB_DATA_DIR. */
export function configuredDatabase(): DatabaseOptions {
  const e = env();
  return e.DATABASE_URL ? { url: e.DATABASE_URL, poolName: "primary", replicaUrls: e.DATABASE_REPLICA_URL } : { dataDir: pgliteDataDir() };
}

/**
 * What a read needs of its server: "own-writes" (the default: writes, and every read that must see
 * what was just written or what a manager just changed, such as keys and sharing rules) reads the
 * primary; "may-lag" reads the replica chosen for the enclosing readsMayLag() scope
 * (lib/server/db/replicas.ts), or the primary outside one or when no replica is within the bound.
 */
export type TReadNeed = "own-writes" | "may-lag";

export function database(need: TReadNeed = "own-writes"): Database {
  if (!globalForDb.hubDatabase) {
    globalForDb.hubDatabase = createDatabase(configuredDatabase());
    // hub_db_replica_lag_seconds{replica} (docs/operations.md): the lag of the last check, read at scrape time.
    if (globalForDb.hubDatabase.replicas) registerReplicaLagSource(async () => Object.fromEntries((await replicaLagSeconds()).flatMap((r) => (r.seconds === null ? [] : [[r.replica, r.seconds]]))));
  }
  return need === "may-lag" ? laggingReader(globalForDb.hubDatabase) : globalForDb.hubDatabase;
}

/**
 * Each read replica's lag in seconds at its last check (about every second): now − the primary's
 * last beat it replayed; null when it cannot be read. Empty without replicas. For the metrics.
 */
export async function replicaLagSeconds(): Promise<Array<{ replica: string; seconds: number | null }>> {
  return globalForDb.hubDatabase?.replicas?.lag() ?? [];
}

/** Makes `database()` return the given instance (tests, scripts). */
export function setDatabase(db: Database | undefined): void {
  globalForDb.hubDatabase = db;
}

export function db(): PrismaClient {
  return database().prisma;
}
