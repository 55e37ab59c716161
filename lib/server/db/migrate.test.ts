import { mkdtemp, mkdir, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openTestDatabase } from "@/test/database";
import { applyMigrations, MIGRATIONS_DIR, MigrationError, NO_TRANSACTION_MARKER, splitStatements } from "./migrate";

const opened: Array<{ close: () => Promise<void> }> = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

async function emptyDatabase() {
  const t = await openTestDatabase({ migrate: false });
  opened.push(t);
  return t.db.sql;
}

async function migrationsDir(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "hub-migrations-"));
  for (const [name, sql] of Object.entries(files)) {
    await mkdir(path.join(dir, name));
    await writeFile(path.join(dir, name, "migration.sql"), sql);
  }
  return dir;
}

const history = (sql: Awaited<ReturnType<typeof emptyDatabase>>) =>
  sql.query<{ migration_name: string }>(`SELECT migration_name FROM "_prisma_migrations" ORDER BY migration_name`);

describe("migration runner", () => {
  it("applies each migration once, in name order, and is safe to run twice", async () => {
    const sql = await emptyDatabase();
    const dir = await migrationsDir({
      "002_add_column": `ALTER TABLE t ADD COLUMN b int; INSERT INTO t (a, b) VALUES (1, 2);`,
      "001_create": `CREATE TABLE t (a int);`,
    });
    expect(await applyMigrations(sql, dir)).toEqual({ applied: ["001_create", "002_add_column"] });
    expect(await applyMigrations(sql, dir)).toEqual({ applied: [] });
    expect(await sql.query(`SELECT a, b FROM t`)).toEqual([{ a: 1, b: 2 }]);
    expect((await history(sql)).map((r) => r.migration_name)).toEqual(["001_create", "002_add_column"]);
  });

  it("a failing migration leaves no trace and no history row, so the next run retries it", async () => {
    const sql = await emptyDatabase();
    const dir = await migrationsDir({ "001_ok": `CREATE TABLE ok (a int);`, "002_bad": `CREATE TABLE half (a int); SELECT 1/0;` });
    await expect(applyMigrations(sql, dir)).rejects.toThrow(/division by zero/);
    expect((await history(sql)).map((r) => r.migration_name)).toEqual(["001_ok"]);
    expect(await sql.query(`SELECT to_regclass('half') AS t`)).toEqual([{ t: null }]);
  });

  it("refuses a migration edited after it was applied", async () => {
    const sql = await emptyDatabase();
    const dir = await migrationsDir({ "001_create": `CREATE TABLE t (a int);` });
    await applyMigrations(sql, dir);
    await writeFile(path.join(dir, "001_create", "migration.sql"), `CREATE TABLE t (a bigint);`);
    await expect(applyMigrations(sql, dir)).rejects.toBeInstanceOf(MigrationError);
  });

  it("runs a no-transaction migration statement by statement: CREATE INDEX CONCURRENTLY works and the index is valid", async () => {
    const sql = await emptyDatabase();
    const dir = await migrationsDir({
      "001_create": `CREATE TABLE t (a int, b int); INSERT INTO t SELECT g, g FROM generate_series(1, 100) g;`,
      "002_index": `${NO_TRANSACTION_MARKER}\n-- a comment\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "t_a_idx" ON t (a);\nCREATE INDEX CONCURRENTLY IF NOT EXISTS "t_b_idx" ON t (b);\n`,
    });
    expect(await applyMigrations(sql, dir)).toEqual({ applied: ["001_create", "002_index"] });
    expect(await applyMigrations(sql, dir)).toEqual({ applied: [] });
    const indexes = await sql.query<{ name: string; valid: boolean }>(
      `SELECT c.relname AS name, i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname LIKE 't\\_%' ORDER BY 1`,
    );
    expect(indexes).toEqual([{ name: "t_a_idx", valid: true }, { name: "t_b_idx", valid: true }]);
  });

  it("a failed concurrent index build is retried: its INVALID leftover is dropped and built again", async () => {
    const sql = await emptyDatabase();
    const dir = await migrationsDir({
      "001_create": `CREATE TABLE t (a int); INSERT INTO t VALUES (1), (1);`,
      "002_index": `${NO_TRANSACTION_MARKER}\nCREATE UNIQUE INDEX CONCURRENTLY IF NOT EXISTS "t_a_key" ON t (a);\n`,
    });
    await expect(applyMigrations(sql, dir)).rejects.toThrow(/duplicate|unique/i);
    expect((await history(sql)).map((r) => r.migration_name)).toEqual(["001_create"]);
    await sql.exec(`DELETE FROM t WHERE ctid = (SELECT max(ctid) FROM t)`);
    expect(await applyMigrations(sql, dir)).toEqual({ applied: ["002_index"] });
    expect(await sql.query(`SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = 't_a_key'`)).toEqual([{ valid: true }]);
  });

  it("splits a no-transaction migration at semicolons that end a line", () => {
    expect(splitStatements(`-- x\nCREATE INDEX a ON t (a);\n\n-- y\nCREATE INDEX b\n  ON t (b);`)).toEqual(["CREATE INDEX a ON t (a)", "CREATE INDEX b\n  ON t (b)"]);
  });

  it("the project's own migrations apply to an empty database and then do nothing", async () => {
    const sql = await emptyDatabase();
    const first = await applyMigrations(sql, MIGRATIONS_DIR);
    expect(first.applied.length).toBeGreaterThan(0);
    expect(await applyMigrations(sql, MIGRATIONS_DIR)).toEqual({ applied: [] });
    expect(await sql.query(`SELECT to_regclass('"ChangeEvent"') IS NOT NULL AS ok`)).toEqual([{ ok: true }]);
  });
});
