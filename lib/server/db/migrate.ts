import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { SqlDriver, SqlRunner } from "./driver";

export const MIGRATIONS_DIR = path.join(process.cwd(), "prisma", "migrations");

// Same table Prisma's own migrate uses, so `prisma migrate status` reads our history.
const CREATE_HISTORY = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id" VARCHAR(36) PRIMARY KEY,
  "checksum" VARCHAR(64) NOT NULL,
  "finished_at" TIMESTAMPTZ,
  "migration_name" VARCHAR(255) NOT NULL,
  "logs" TEXT,
  "rolled_back_at" TIMESTAMPTZ,
  "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;

// Serialises concurrent app instances starting against one PostgreSQL.
const LOCK_KEY = 72_616_101;

export class MigrationError extends Error {}

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

async function readMigrations(dir: string): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      return { name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

/**
 * A migration whose first line is this marker runs outside a transaction block, one statement at
 * a time: CREATE INDEX CONCURRENTLY builds an index without blocking writes, and PostgreSQL
 * refuses it inside a transaction (docs/decisions/017-migrations-without-blocking-writes.md).
 */
export const NO_TRANSACTION_MARKER = "-- hub:no-transaction";

/**
 * Applies each migration under `dir` once, in name order, each in its own transaction with its
 * history row. A migration edited after it was applied is refused rather than silently skipped.
 * A migration marked NO_TRANSACTION_MARKER runs statement by statement instead (runWithoutTransaction).
 */
export async function applyMigrations(
  driver: SqlDriver,
  dir: string = MIGRATIONS_DIR,
): Promise<{ applied: string[] }> {
  const migrations = await readMigrations(dir);
  await driver.exec(CREATE_HISTORY);
  const applied: string[] = [];
  for (const migration of migrations) {
    const didApply = migration.sql.startsWith(NO_TRANSACTION_MARKER)
      ? await runWithoutTransaction(driver, migration)
      : await driver.transaction(async (tx) => {
          await tx.query("SELECT pg_advisory_xact_lock($1)", [LOCK_KEY]);
          if (await isApplied(tx, migration)) return false;
          await tx.exec(migration.sql);
          await recordApplied(tx, migration);
          return true;
        });
    if (didApply) applied.push(migration.name);
  }
  return { applied };
}

async function isApplied(runner: SqlRunner, migration: Migration): Promise<boolean> {
  const [done] = await runner.query<{ checksum: string }>(
    `SELECT checksum FROM "_prisma_migrations"
      WHERE migration_name = $1 AND finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    [migration.name],
  );
  if (done && done.checksum !== migration.checksum) {
    throw new MigrationError(`Migration ${migration.name} was modified after it was applied.`);
  }
  return done !== undefined;
}

async function recordApplied(runner: SqlRunner, migration: Migration): Promise<void> {
  await runner.query(
    `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
     VALUES ($1, $2, now(), $3, 1)`,
    [randomUUID(), migration.checksum, migration.name],
  );
}

// CREATE INDEX CONCURRENTLY [IF NOT EXISTS] "name": the index a statement builds.
const CONCURRENT_INDEX = /^CREATE\s+(?:UNIQUE\s+)?INDEX\s+CONCURRENTLY\s+(?:IF\s+NOT\s+EXISTS\s+)?"([^"]+)"/i;

/**
 * A migration outside a transaction block, on one connection holding the runner's lock at session
 * level (other instances wait, as they do for a transactional migration). Its statements are
 * separated by a semicolon at the end of a line and must each be safe to run again: a failure
 * leaves the earlier ones done and no history row, and the next start runs the migration again.
 * An index that a failed CREATE INDEX CONCURRENTLY left behind is INVALID (unused by queries,
 * still maintained by writes): it is dropped, concurrently, before the statement runs again.
 */
async function runWithoutTransaction(driver: SqlDriver, migration: Migration): Promise<boolean> {
  return driver.session(async (conn) => {
    await conn.query("SELECT pg_advisory_lock($1)", [LOCK_KEY]);
    try {
      if (await isApplied(conn, migration)) return false;
      for (const statement of splitStatements(migration.sql)) {
        const index = CONCURRENT_INDEX.exec(statement)?.[1];
        if (index) {
          const [invalid] = await conn.query<{ name: string }>(
            `SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
              WHERE c.relname = $1 AND c.relnamespace = current_schema()::regnamespace AND NOT i.indisvalid`,
            [index],
          );
          if (invalid) await conn.exec(`DROP INDEX CONCURRENTLY IF EXISTS "${index}"`);
        }
        await conn.exec(statement);
      }
      await recordApplied(conn, migration);
      return true;
    } finally {
      await conn.query("SELECT pg_advisory_unlock($1)", [LOCK_KEY]);
    }
  });
}

/** Statements of a no-transaction migration: split at a semicolon ending a line, comments dropped. */
export function splitStatements(sql: string): string[] {
  return sql
    .split(/;[ \t]*(?:\r?\n|$)/)
    .map((s) => s.split(/\r?\n/).filter((line) => !line.trim().startsWith("--")).join("\n").trim())
    .filter((s) => s.length > 0);
}
