import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import type { SqlDriver } from "./driver";

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
 * Applies each migration under `dir` once, in name order, each in its own transaction with its
 * history row. A migration edited after it was applied is refused rather than silently skipped.
 */
export async function applyMigrations(
  driver: SqlDriver,
  dir: string = MIGRATIONS_DIR,
): Promise<{ applied: string[] }> {
  const migrations = await readMigrations(dir);
  await driver.exec(CREATE_HISTORY);
  const applied: string[] = [];
  for (const migration of migrations) {
    const didApply = await driver.transaction(async (tx) => {
      await tx.query("SELECT pg_advisory_xact_lock($1)", [LOCK_KEY]);
      const [done] = await tx.query<{ checksum: string }>(
        `SELECT checksum FROM "_prisma_migrations"
          WHERE migration_name = $1 AND finished_at IS NOT NULL AND rolled_back_at IS NULL`,
        [migration.name],
      );
      if (done) {
        if (done.checksum !== migration.checksum) {
          throw new MigrationError(`Migration ${migration.name} was modified after it was applied.`);
        }
        return false;
      }
      await tx.exec(migration.sql);
      await tx.query(
        `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
         VALUES ($1, $2, now(), $3, 1)`,
        [randomUUID(), migration.checksum, migration.name],
      );
      return true;
    });
    if (didApply) applied.push(migration.name);
  }
  return { applied };
}
