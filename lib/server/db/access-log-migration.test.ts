// 20261125100000_access_log_owned_by_institution on a database that already has access-log rows:
// each gets its channel and the application's name, and then outlives the application.
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { openTestDatabase } from "@/test/database";
import { applyMigrations, MIGRATIONS_DIR } from "./migrate";

it("backfills channel and applicationName, and the rows survive the application's deletion", async () => {
  const t = await openTestDatabase({ migrate: false });
  const dir = await mkdtemp(path.join(tmpdir(), "mig-"));
  await cp(MIGRATIONS_DIR, dir, { recursive: true });
  // The database as it was before this migration: it and every later one (some build on it, as
  // OneRoster's adds a value to the channel type it creates) are applied afterwards.
  const TARGET = "20261125100000_access_log_owned_by_institution";
  for (const name of await readdir(dir)) if (/^\d{14}_/.test(name) && name >= TARGET) await rm(path.join(dir, name), { recursive: true });
  await applyMigrations(t.db.sql, dir);
  await t.db.sql.query(`INSERT INTO "Institution" (id, name, kind, "updatedAt") VALUES ('11111111-1111-4111-8111-111111111111', 'I', 'school', now())`);
  await t.db.sql.query(`INSERT INTO "Edtech" (id, name, slug, "updatedAt") VALUES ('22222222-2222-4222-8222-222222222222', 'E', 'e', now())`);
  await t.db.sql.query(`INSERT INTO "OAuthApplication" (id, "edtechId", name, description, "clientId", "clientSecretHash", "redirectUris", "updatedAt") VALUES ('33333333-3333-4333-8333-333333333333', '22222222-2222-4222-8222-222222222222', 'App Velha', 'd', 'c', 'h', '{}', now())`);
  await t.db.sql.query(`INSERT INTO "DataAccessLog" (id, "applicationId", "institutionId", endpoint, filters, status) VALUES (gen_random_uuid(), '33333333-3333-4333-8333-333333333333', '11111111-1111-4111-8111-111111111111', 'summary', '{}', 200), (gen_random_uuid(), '33333333-3333-4333-8333-333333333333', '11111111-1111-4111-8111-111111111111', 'data', '{}', 403)`);
  expect((await applyMigrations(t.db.sql, MIGRATIONS_DIR)).applied[0]).toBe(TARGET);
  await t.db.sql.query(`DELETE FROM "OAuthApplication"`);
  expect(await t.db.sql.query(`SELECT channel::text, "applicationId", "applicationName", attributes FROM "DataAccessLog" ORDER BY channel`)).toEqual([
    { channel: "data_api", applicationId: null, applicationName: "App Velha", attributes: [] },
    { channel: "summary", applicationId: null, applicationName: "App Velha", attributes: [] },
  ]);
  await t.close();
  await rm(dir, { recursive: true, force: true });
});
