// Erasure that erases and history under today's rules (issue #14, points 3 and 4;
// docs/decisions/016-history-under-todays-rules.md), through the served Data API routes:
// - deleting a person leaves none of their values in any table, nor in any application's feed,
//   including one granted after the deletion; partners get the deletes they need;
// - an application granted after a phone changed twice receives the current number, once;
// - an update that changed only an attribute an application cannot see is not delivered to it.
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { database, db } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import { GET as dataGet } from "@/app/manager/v1/data/[orgId]/route";
import { GET as summaryGet } from "@/app/manager/v1/summary/[orgId]/route";
import { flushAccessLogs } from "@/lib/server/audit/log-access";
import { authenticatePerson } from "@/lib/server/auth/authenticate-person";
import { transaction } from "@/lib/server/db/transaction";
import { previewApplicationData } from "@/lib/server/management/preview-application-data";
import { setApplicationAccess } from "@/lib/server/management/set-application-access";
import { createManagementFixture, type TManagementFixture } from "@/test/fixtures/management";
import { assignTeacher } from "@/lib/server/school-data/assign-teacher";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { deletePerson } from "@/lib/server/school-data/delete-person";
import { deleteProfile } from "@/lib/server/school-data/delete-profile";
import { enrollStudent } from "@/lib/server/school-data/enroll-student";
import { linkGuardian } from "@/lib/server/school-data/link-guardian";
import { updatePerson } from "@/lib/server/school-data/update-person";
import { applicationPartner, partnerIdOf, withGlobalIds } from "@/test/fixtures/pairwise";
import { setupTestDatabase } from "@/test/database";
import type { TDataResponse } from "@/lib/server/data-api/read-data-page";
import type { TSummaryNode } from "@/lib/server/data-api/count-event-tree";
import { createPartner, grantAccess, linkEdtech, waitForVisibleEvents, type TPartner } from "@/test/fixtures/data-api";

setupTestDatabase();
let f: TManagementFixture;

type TRules = Parameters<typeof setApplicationAccess>[0] extends infer O ? (O extends { settings: { rules: infer R } } ? R : never) : never;
const ALL_PLAIN = { nome_usuario: "permitido", idade: "permitido", cpf: "permitido", email_usuario: "permitido", telefone: "permitido" } as const satisfies TRules;

/** An application linked to the network and enabled at school 1 through /gestao's own service, now. */
async function grantedNow(name: string, rules: TRules = ALL_PLAIN): Promise<TPartner> {
  const partner = await createPartner(name);
  await linkEdtech(f.networkId, partner.edtechId);
  await setApplicationAccess({ scope: f.manager1, settings: { institutionId: f.school1.id, applicationId: partner.applicationId, rules } });
  return partner;
}

/**
 * A global user_id in the query is sent as the application's own (pairwise) id of the profile, as
 * a partner would; wholeFeed and pagedIds map the ids they read back to global ones (pairwise ids
 * are tested in lib/server/privacy/pairwise-channels.test.ts).
 */
async function get(handler: typeof dataGet, path: string, key: string): Promise<{ status: number; text: string }> {
  const url = new URL(path, "http://hub.test");
  const userId = url.searchParams.get("user_id");
  if (userId) {
    const application = await db().apiKey.findFirst({ where: { prefix: key.slice(0, 12) }, select: { applicationId: true } });
    if (application) url.searchParams.set("user_id", await partnerIdOf(applicationPartner(application.applicationId), userId));
  }
  const orgId = url.pathname.split("/")[4]!;
  const response = await handler(new NextRequest(url, { headers: { "x-api-key": key } }), { params: Promise.resolve({ orgId }) });
  return { status: response.status, text: await response.text() };
}

/** GET /manager/v1/data/{school 1} with no limit and no cursor: the application's whole feed. */
async function wholeFeed(partner: TPartner, query = ""): Promise<{ text: string; body: TDataResponse }> {
  await waitForVisibleEvents();
  const r = await get(dataGet, `/manager/v1/data/${f.school1.id}${query ? `?${query}` : ""}`, partner.key);
  expect(r.status).toBe(200);
  return { text: r.text, body: await withGlobalIds(partner.applicationId, JSON.parse(r.text) as TDataResponse) };
}

/** Every page of limit 1, joined: what a paging client ends up with. */
async function pagedIds(partner: TPartner): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const r = await get(dataGet, `/manager/v1/data/${f.school1.id}?limit=1${cursor ? `&cursor=${cursor}` : ""}`, partner.key);
    const body = await withGlobalIds(partner.applicationId, JSON.parse(r.text) as TDataResponse);
    ids.push(...Object.values(body.dados).flat().map((e) => e!.id));
    cursor = body.paginacao.proximoCursor;
  } while (cursor);
  return ids.sort();
}

async function summaryTotals(partner: TPartner, query = ""): Promise<Record<string, number>> {
  const r = await get(summaryGet, `/manager/v1/summary/${f.school1.id}${query ? `?${query}` : ""}`, partner.key);
  expect(r.status).toBe(200);
  const tree = JSON.parse(r.text) as TSummaryNode;
  return Object.fromEntries(Object.entries(tree.total).map(([entity, kinds]) => [entity, Object.values(kinds).reduce((a, b) => a + b, 0)]));
}

const countsOf = (body: TDataResponse) => Object.fromEntries(Object.entries(body.dados).map(([entity, list]) => [entity, list!.length]));
const eventsOf = (body: TDataResponse) => Object.entries(body.dados).flatMap(([entity, list]) => list!.map((e) => ({ entity, ...e })));

/** Every row of every table of the public schema, as text: what a pg_dump of the data holds. */
async function dumpEveryTable(): Promise<string> {
  const tables = await database().sql.query<{ name: string }>(
    `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY 1`,
  );
  expect(tables.map((t) => t.name)).toEqual(expect.arrayContaining(["ChangeEvent", "Person", "AuditLog", "DataAccessLog", "RateLimit"]));
  const parts: string[] = [];
  for (const { name } of tables) {
    const rows = await database().sql.query<{ row: string }>(`SELECT t::text AS row FROM "${name.replace(/"/g, '""')}" t`);
    parts.push(`-- ${name}`, ...rows.map((r) => r.row));
  }
  return parts.join("\n");
}

beforeAll(async () => {
  process.env.HUB_SECRET = "history-and-erasure-test-secret-0123456789";
  resetEnvCache();
  f = await createManagementFixture();
});

describe("deleting a person erases their values everywhere", () => {
  const raw = {
    name: "Maria Quitéria Lopes",
    cpf: "52998224725",
    birthDate: "2013-05-06",
    email: "maria.quiteria@escola.test",
    oldPhone: "11912345678",
    newPhone: "11923456789",
  };

  it("no table and no feed (before, legacy or granted after the deletion) holds them; partners get every delete", async () => {
    const before = await grantedNow("Antes");
    const maria = await createPerson({ name: raw.name, cpf: "529.982.247-25", birthDate: raw.birthDate, email: raw.email, phone: "(11) 91234-5678", password: "senha-da-maria-1" });
    const student = await createProfile({ personId: maria.id, institutionId: f.school1.id, role: "aluno" });
    const teacher = await createProfile({ personId: maria.id, institutionId: f.school1.id, role: "professor" });
    const guardian = await createProfile({ personId: (await createPerson({ name: "Rosa Lopes" })).id, institutionId: f.school1.id, role: "responsavel" });
    const enrollment = await enrollStudent({ classId: f.school1.classId, studentId: student.id });
    const teaching = await assignTeacher({ classId: f.school1.classId, subjectId: f.school1.subjectId, teacherId: teacher.id });
    const guardianship = await linkGuardian({ guardianId: guardian.id, studentId: student.id, kinship: "mãe" });
    await updatePerson({ personId: maria.id, changes: { phone: "(11) 92345-6789" } });
    // Traces other than school data: a failed sign-in with her e-mail and CPF, a read of her events.
    await authenticatePerson({ login: raw.email, password: "errada", ip: "10.9.0.1" });
    await authenticatePerson({ login: "529.982.247-25", password: "errada", ip: "10.9.0.1" });
    const served = await wholeFeed(before, `user_id=${student.id}`);
    // While she exists, her current values are served and the superseded phone never is.
    expect(served.text).toContain(raw.name);
    expect(served.text).toContain(raw.newPhone);
    expect(served.text).not.toContain(raw.oldPhone);

    await deletePerson({ personId: maria.id });
    const legacy = await createPartner("Legado");
    await linkEdtech(f.networkId, legacy.edtechId);
    await grantAccess(f.school1.id, legacy.applicationId, { allowed: ["nome_usuario", "idade", "cpf", "email_usuario", "telefone"], anonymized: [] });
    const after = await grantedNow("Depois");
    const feeds = { before: await wholeFeed(before), legacy: await wholeFeed(legacy), after: await wholeFeed(after) };
    await flushAccessLogs();

    const dump = await dumpEveryTable();
    // The dump is real: other people's values are there.
    expect(dump).toContain("Aluno Escola Um");
    expect(dump).toContain("Rosa Lopes");
    for (const value of Object.values(raw)) {
      expect(dump.toLowerCase(), `database dump holds ${value}`).not.toContain(value.toLowerCase());
      for (const [name, feed] of Object.entries(feeds)) expect(feed.text, `${name}'s feed holds ${value}`).not.toContain(value);
    }

    // The partner that had her receives the deletes it needs: each link, then each profile.
    const deletes = eventsOf(feeds.before.body).filter((e) => e.evento === "delete").map((e) => `${e.entity}:${String(e.registro.id)}`);
    expect(deletes).toEqual(
      expect.arrayContaining([`usuario:${student.id}`, `usuario:${teacher.id}`, `turmaAluno:${enrollment.id}`, `disciplinaProfessor:${teaching.id}`, `responsavelAluno:${guardianship.id}`]),
    );
    // A delete carries the record's non-personal fields only.
    const studentDelete = eventsOf(feeds.before.body).find((e) => e.evento === "delete" && e.registro.id === student.id)!;
    expect(studentDelete.registro).toEqual({ id: student.id, pessoaId: maria.id, instituicaoId: f.school1.id, perfil: "aluno" });
    // An application granted after the deletion never hears of her at all.
    for (const id of [student.id, teacher.id, enrollment.id, teaching.id, guardianship.id]) expect(feeds.after.text).not.toContain(id);
  });
});

describe("an application's feed starts at its grant with the current state", () => {
  it("a phone changed twice before the link arrives once, with the current number; summary, paging and preview agree", async () => {
    const early = await grantedNow("Desde sempre");
    const pedro = await createPerson({ name: "Pedro Alcântara", phone: "11 90000-0001" });
    const profile = await createProfile({ personId: pedro.id, institutionId: f.school1.id, role: "aluno" });
    await updatePerson({ personId: pedro.id, changes: { phone: "11 90000-0002" } });
    await updatePerson({ personId: pedro.id, changes: { phone: "11 90000-0003" } });

    const late = await grantedNow("Chegou depois");
    const { text, body } = await wholeFeed(late);
    const his = body.dados.usuario!.filter((e) => e.registro.id === profile.id);
    expect(his).toHaveLength(1);
    expect(his[0]).toMatchObject({ evento: "insert", registro: { telefone: "11900000003", nome_usuario: "Pedro Alcântara" } });
    expect(text).not.toContain("11900000001");
    expect(text).not.toContain("11900000002");
    // The fixture's school data (written before the grant) is there as current state.
    expect(body.dados.usuario!.map((e) => e.registro.id)).toContain(f.school1.studentId);
    expect(body.dados.turmaAluno!.map((e) => e.registro.id)).toContain(f.school1.enrollmentId);

    // Paging delivers the same events; the summary counts them; the preview shows the last one.
    expect(await pagedIds(late)).toEqual(eventsOf(body).map((e) => e.id).sort());
    expect(await summaryTotals(late)).toEqual(countsOf(body));
    const preview = await previewApplicationData({ scope: f.manager1, institutionId: f.school1.id, applicationId: late.applicationId, profileId: profile.id });
    // (The preview shows the application's own ids, as its feed does.)
    expect(preview).toMatchObject({ status: "ok", evento: { id: await partnerIdOf(applicationPartner(late.applicationId), his[0]!.id), evento: "insert" } });

    // The application that was there all along got every change, each with the current values.
    const all = (await wholeFeed(early, `user_id=${profile.id}`)).body.dados.usuario!;
    expect(all.map((e) => [e.evento, e.registro.telefone])).toEqual([
      ["insert", "11900000003"],
      ["update", "11900000003"],
      ["update", "11900000003"],
    ]);

    // After the grant, every change is delivered.
    await updatePerson({ personId: pedro.id, changes: { phone: "11 90000-0004" } });
    const next = (await wholeFeed(late, `user_id=${profile.id}`)).body.dados.usuario!;
    expect(next.map((e) => [e.evento, e.registro.telefone])).toEqual([
      ["insert", "11900000004"],
      ["update", "11900000004"],
    ]);
  });
});

describe("an update is delivered only to applications that can see what it changed", () => {
  it("a phone-only update skips the application without telefone; a name update reaches both", async () => {
    const blind = await grantedNow("Sem telefone", { ...ALL_PLAIN, telefone: "nao_compartilhado" });
    const seeing = await grantedNow("Com telefone", { ...ALL_PLAIN, telefone: "anonimizado" });
    const joana = await createPerson({ name: "Joana Prado", phone: "11 97000-0001" });
    const profile = await createProfile({ personId: joana.id, institutionId: f.school1.id, role: "aluno" });
    await updatePerson({ personId: joana.id, changes: { phone: "11 97000-0002" } });

    const kinds = async (partner: TPartner) => (await wholeFeed(partner, `user_id=${profile.id}`)).body.dados.usuario!.map((e) => e.evento);
    expect(await kinds(blind)).toEqual(["insert"]);
    expect(await kinds(seeing)).toEqual(["insert", "update"]);
    expect(await summaryTotals(blind, `user_id=${profile.id}&only=usuario`)).toEqual({ usuario: 1 });
    expect(await summaryTotals(seeing, `user_id=${profile.id}&only=usuario`)).toEqual({ usuario: 2 });

    // An application without telefone granted now still gets her, once, as she is: the hidden
    // update is her latest event, and before a grant only the history decides.
    const blindLater = await grantedNow("Sem telefone, depois", { ...ALL_PLAIN, telefone: "nao_compartilhado" });
    const later = (await wholeFeed(blindLater, `user_id=${profile.id}`)).body.dados.usuario!;
    expect(later.map((e) => [e.evento, e.registro.nome_usuario])).toEqual([["insert", "Joana Prado"]]);
    expect(await summaryTotals(blindLater, `user_id=${profile.id}&only=usuario`)).toEqual({ usuario: 1 });

    await updatePerson({ personId: joana.id, changes: { name: "Joana Prado Lima" } });
    expect(await kinds(blind)).toEqual(["insert", "update"]);
    expect(await kinds(seeing)).toEqual(["insert", "update", "update"]);
    expect(await kinds(blindLater)).toEqual(["insert", "update"]);
  });
});

describe.runIf(!!process.env.DATABASE_URL)("a grant made while a write is open (PostgreSQL)", () => {
  it("the open write's delete still reaches the application: its grant is the horizon, below the open transaction", async () => {
    const person = await createPerson({ name: "Tomás em Aberto" });
    const profile = await createProfile({ personId: person.id, institutionId: f.school1.id, role: "aluno" });
    await waitForVisibleEvents();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let deleted!: () => void;
    const inside = new Promise<void>((resolve) => (deleted = resolve));
    const open = transaction(async (tx) => {
      await deleteProfile({ profileId: profile.id }, { tx });
      deleted();
      await released;
    });
    await inside;
    // Granted while the delete is written but not committed: the insert is still current.
    const partner = await grantedNow("Durante");
    const first = JSON.parse((await get(dataGet, `/manager/v1/data/${f.school1.id}?limit=1000&user_id=${profile.id}`, partner.key)).text) as TDataResponse;
    expect(first.dados.usuario!.map((e) => e.evento)).toEqual(["insert"]);
    release();
    await open;
    await waitForVisibleEvents();
    const next = JSON.parse(
      (await get(dataGet, `/manager/v1/data/${f.school1.id}?limit=1000&user_id=${profile.id}&cursor=${first.paginacao.cursorRetomada}`, partner.key)).text,
    ) as TDataResponse;
    expect(next.dados.usuario!.map((e) => e.evento)).toEqual(["delete"]);
  });
});
