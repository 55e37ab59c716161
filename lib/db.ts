// The one place that knows which database engine runs: embedded PGlite under HUB_DATA_DIR by
// default, PostgreSQL when DATABASE_URL is set. Everything else gets a PrismaClient and, for the
// few raw-SQL paths, a SqlDriver.
import { mkdirSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { pgliteDriver, postgresDriver, type SqlDriver } from "@/lib/server/db/driver";

export interface Database {
  prisma: PrismaClient;
  sql: SqlDriver;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** postgresql:// URL; when absent the embedded engine is used. */
  url?: string;
  /** PGlite data directory; "memory://" keeps it in memory (tests). */
  dataDir?: string;
}

export function createDatabase(options: DatabaseOptions): Database {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool) });
    const sql = postgresDriver(pool);
    return { prisma, sql, close: async () => { await prisma.$disconnect(); await sql.close(); } };
  }
  const dir = options.dataDir ?? "memory://";
  if (dir !== "memory://") mkdirSync(dir, { recursive: true });
  const client = new PGlite(dir === "memory://" ? undefined : dir);
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

export function database(): Database {
  if (!globalForDb.hubDatabase) {
    const e = env();
    globalForDb.hubDatabase = createDatabase(
      e.DATABASE_URL ? { url: e.DATABASE_URL } : { dataDir: pgliteDataDir() },
    );
  }
  return globalForDb.hubDatabase;
}

/** Makes `database()` return the given instance (tests, scripts). */
export function setDatabase(db: Database | undefined): void {
  globalForDb.hubDatabase = db;
}

export function db(): PrismaClient {
  return database().prisma;
}
