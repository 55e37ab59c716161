// Each test file gets its own empty, migrated database: an in-memory PGlite by default, or a
// fresh PostgreSQL database (dropped afterwards) when DATABASE_URL is set. Under Vitest both start
// from the database the global setup migrated once (test/global-setup.ts); elsewhere (a bench)
// each is migrated here.
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";
import { createDatabase, setDatabase, type Database } from "@/lib/server/db/database";
import { applyMigrations } from "@/lib/server/db/migrate";
import { flushAccessLogs } from "@/lib/server/audit/log-access";

/** Set by test/global-setup.ts: the files holding PGlite dumps of an empty and of a migrated database. */
export const PGLITE_EMPTY_VARIABLE = "HUB_TEST_PGLITE_EMPTY";
export const PGLITE_SNAPSHOT_VARIABLE = "HUB_TEST_PGLITE_SNAPSHOT";
/** Set by test/global-setup.ts: the migrated template database's name (PostgreSQL runs). */
export const PG_TEMPLATE_VARIABLE = "HUB_TEST_PG_TEMPLATE";

export interface TestDatabase {
  readonly db: Database;
  readonly url: string | undefined;
}

/** A new database on the server `adminUrl` names, empty or a copy of `template`. */
export async function createPostgresDatabase(adminUrl: string, template?: string): Promise<{ name: string; url: string; drop: () => Promise<void> }> {
  const name = `hub_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ""}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

export async function openTestDatabase({ migrate = true } = {}): Promise<TestDatabase & { close: () => Promise<void> }> {
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    const template = migrate ? process.env[PG_TEMPLATE_VARIABLE] : undefined;
    const created = await createPostgresDatabase(adminUrl, template);
    const db = createDatabase({ url: created.url });
    if (migrate && !template) await applyMigrations(db.sql);
    return { db, url: created.url, close: async () => { await db.close(); await created.drop(); } };
  }
  const snapshot = process.env[migrate ? PGLITE_SNAPSHOT_VARIABLE : PGLITE_EMPTY_VARIABLE];
  const db = createDatabase({ dataDir: "memory://", ...(snapshot ? { loadDataDir: new Blob([readFileSync(snapshot)]) } : {}) });
  if (migrate && !snapshot) await applyMigrations(db.sql);
  return { db, url: undefined, close: () => db.close() };
}

/** Registers hooks that give this file a database and make `database()` return it. */
export function setupTestDatabase(): TestDatabase {
  let opened: Awaited<ReturnType<typeof openTestDatabase>> | undefined;
  beforeAll(async () => {
    opened = await openTestDatabase();
    setDatabase(opened.db);
  });
  afterAll(async () => {
    // The access log is written in batches a few milliseconds later: write what the file's last
    // requests queued while its database still exists.
    await flushAccessLogs();
    setDatabase(undefined);
    await opened?.close();
  });
  return {
    get db() {
      if (!opened) throw new Error("test database not open yet");
      return opened.db;
    },
    get url() {
      return opened?.url;
    },
  };
}

