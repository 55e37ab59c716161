// Vitest's global setup: migrates one database for the whole run, which each test file's own
// database starts from (test/database.ts). Opening an empty PGlite runs initdb in WebAssembly
// (2–5 s per file on this machine, plus the migrations); loading a dump of a migrated one takes
// about 0.6 s. On PostgreSQL each file's database is created from a migrated template.
// The workers inherit the variables set here (their names are in test/database.ts).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { pgliteDriver, postgresDriver } from "@/lib/server/db/driver";
import { applyMigrations } from "@/lib/server/db/migrate";
import { createPostgresDatabase, PG_TEMPLATE_VARIABLE, PGLITE_EMPTY_VARIABLE, PGLITE_SNAPSHOT_VARIABLE } from "@/test/database";

async function migratedTemplate(adminUrl: string): Promise<() => Promise<void>> {
  const template = await createPostgresDatabase(adminUrl);
  // One connection, closed before any file copies the template: PostgreSQL refuses to copy a
  // database someone is connected to.
  const pool = new pg.Pool({ connectionString: template.url, max: 1 });
  try {
    await applyMigrations(postgresDriver(pool));
  } finally {
    await pool.end();
  }
  process.env[PG_TEMPLATE_VARIABLE] = template.name;
  return template.drop;
}

async function migratedSnapshot(): Promise<() => void> {
  const dir = mkdtempSync(path.join(tmpdir(), "hub-test-db-"));
  const client = new PGlite();
  const save = async (name: string, variable: string) => {
    const file = path.join(dir, name);
    writeFileSync(file, Buffer.from(await (await client.dumpDataDir("none")).arrayBuffer()));
    process.env[variable] = file;
  };
  try {
    await client.waitReady;
    await save("empty.tar", PGLITE_EMPTY_VARIABLE); // for the tests of the migrations themselves
    await applyMigrations(pgliteDriver(client));
    await save("migrated.tar", PGLITE_SNAPSHOT_VARIABLE);
  } finally {
    await client.close();
  }
  return () => rmSync(dir, { recursive: true, force: true });
}

// Each Vitest project (vitest.config.ts: shared, isolated) runs the global setup; the run needs
// one migrated database, made by the first and found by the others in this process.
const run = globalThis as typeof globalThis & { hubTestDatabase?: Promise<unknown> };

/** Vitest calls what it returns at the end of the run. */
export async function setup(): Promise<() => void | Promise<void>> {
  if (run.hubTestDatabase) {
    await run.hubTestDatabase;
    return () => undefined;
  }
  const adminUrl = process.env.DATABASE_URL;
  const made = adminUrl ? migratedTemplate(adminUrl) : migratedSnapshot();
  run.hubTestDatabase = made;
  return made;
}
