// Migration 20261126100000_history_under_todays_rules on a database that already has history
// (docs/decisions/016-history-under-todays-rules.md): personal values leave the event log, the
// events are marked superseded as if recordChanges had written them, existing access keeps its
// whole feed (grant 0) while new access starts at the horizon, and throttle keys naming a login go.
import { cp, mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { openTestDatabase } from "@/test/database";
import { applyMigrations, MIGRATIONS_DIR } from "./migrate";

const MIGRATION = "20261126100000_history_under_todays_rules";
const opened: Array<{ close: () => Promise<void> }> = [];
afterAll(async () => {
  while (opened.length) await opened.pop()!.close();
});

describe(MIGRATION, () => {
  it("strips personal values, backfills supersededTxid, keeps old grants whole and drops login throttle keys", async () => {
    const t = await openTestDatabase({ migrate: false });
    opened.push(t);
    const sql = t.db.sql;
    const before = await mkdtemp(path.join(tmpdir(), "hub-migrations-before-"));
    for (const name of (await readdir(MIGRATIONS_DIR, { withFileTypes: true })).filter((e) => e.isDirectory() && e.name < MIGRATION).map((e) => e.name)) {
      await cp(path.join(MIGRATIONS_DIR, name), path.join(before, name), { recursive: true });
    }
    await applyMigrations(sql, before);

    const [ids] = await sql.query<{ school: string; person: string; profile: string; edtech: string; app: string }>(
      `SELECT gen_random_uuid() AS school, gen_random_uuid() AS person, gen_random_uuid() AS profile, gen_random_uuid() AS edtech, gen_random_uuid() AS app`,
    );
    const { school, person, profile, edtech, app } = ids!;
    await sql.query(`INSERT INTO "Institution" (id, name, kind, "updatedAt") VALUES ($1, 'Escola', 'school', now())`, [school]);
    await sql.query(`INSERT INTO "Person" (id, name, phone, "updatedAt") VALUES ($1, 'Rui Antigo', '11900000009', now())`, [person]);
    await sql.query(`INSERT INTO "Profile" (id, "personId", "institutionId", role, "updatedAt") VALUES ($1, $2, $3, 'aluno', now())`, [profile, person, school]);
    const event = (kind: string, phone: string) =>
      sql.query(
        `INSERT INTO "ChangeEvent" (id, "institutionId", entity, kind, "recordId", record, "profileIds")
         VALUES (gen_random_uuid(), $1, 'usuario', $2::"ChangeKind", $3::uuid, $4::jsonb, ARRAY[$3::text])`,
        [school, kind, profile, JSON.stringify({ id: profile, pessoaId: person, instituicaoId: school, perfil: "aluno", nome_usuario: "Rui Antigo", idade: null, cpf: null, email_usuario: null, telefone: phone })],
      );
    await event("insert", "11900000001");
    await event("update", "11900000009");
    await sql.query(`INSERT INTO "Edtech" (id, name, slug, "updatedAt") VALUES ($1, 'E', 'e', now())`, [edtech]);
    await sql.query(
      `INSERT INTO "OAuthApplication" (id, "edtechId", name, "clientId", "clientSecretHash", "redirectUris", "updatedAt") VALUES ($1, $2, 'A', 'client-a', 'x', ARRAY['https://a.test/cb'], now())`,
      [app, edtech],
    );
    await sql.query(
      `INSERT INTO "ApplicationAccess" (id, "institutionId", "applicationId", "allowedAttributes", "anonymizedAttributes", "updatedAt") VALUES (gen_random_uuid(), $1, $2, ARRAY['telefone'], ARRAY[]::text[], now())`,
      [school, app],
    );
    await sql.query(`INSERT INTO "RateLimit" (key, count, "windowStart") VALUES ('signin:login:rui@escola.test', 2, now()), ('signin:ip:10.0.0.1', 2, now())`);

    expect((await applyMigrations(sql)).applied).toContain(MIGRATION);

    const events = await sql.query<{ record: Record<string, unknown>; txid: string; superseded: string | null; changed: string[] }>(
      `SELECT record, txid::text AS txid, "supersededTxid"::text AS superseded, changed FROM "ChangeEvent" ORDER BY seq`,
    );
    expect(events.map((e) => e.record)).toEqual([0, 1].map(() => ({ id: profile, pessoaId: person, instituicaoId: school, perfil: "aluno" })));
    expect(events.map((e) => e.superseded)).toEqual([events[1]!.txid, null]);
    expect(events.map((e) => e.changed)).toEqual([[], []]);
    expect(await sql.query(`SELECT "grantedTxid"::text AS g FROM "ApplicationAccess"`)).toEqual([{ g: "0" }]);
    expect(await sql.query(`SELECT key FROM "RateLimit"`)).toEqual([{ key: "signin:ip:10.0.0.1" }]);

    // A row created now takes the feed horizon.
    await sql.query(`DELETE FROM "ApplicationAccess"`);
    await sql.query(
      `INSERT INTO "ApplicationAccess" (id, "institutionId", "applicationId", "allowedAttributes", "anonymizedAttributes", "updatedAt") VALUES (gen_random_uuid(), $1, $2, ARRAY[]::text[], ARRAY[]::text[], now())`,
      [school, app],
    );
    const [grant] = await sql.query<{ g: string }>(`SELECT "grantedTxid"::text AS g FROM "ApplicationAccess"`);
    expect(BigInt(grant!.g)).toBeGreaterThan(BigInt(events[1]!.txid));
  });
});
