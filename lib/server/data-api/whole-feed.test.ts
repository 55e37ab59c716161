// A request with neither `limit` nor `cursor` (the call as the contract shows it) returns every
// matching event, streamed a chunk at a time; `code_term` keeps the entities without a term; the
// summary is narrowed by user_id and code_term as the data is.
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { createSubject } from "@/lib/server/school-data/create-subject";
import { enrollStudent } from "@/lib/server/school-data/enroll-student";
import { importProfiles } from "@/lib/server/school-data/import-profiles";
import { setupTestDatabase } from "@/test/database";
import { applicationPartner, partnerIdOf } from "@/test/fixtures/pairwise";
import { JsonStream } from "@/lib/server/http/json-text";
import { readData, readDataPage, type TDataResponse } from "./read-data-page";
import { summarizeEvents } from "./summarize-events";
import { createPartner, grantAccess, linkEdtech, waitForVisibleEvents, type TPartner } from "@/test/fixtures/data-api";

setupTestDatabase();
let schoolId = "";
let partner: TPartner;
let studentIds: string[] = [];

const params = (q: Record<string, string>) => new URLSearchParams(q);
const idsOf = (body: TDataResponse) => Object.fromEntries(Object.entries(body.dados).map(([entity, list]) => [entity, list!.map((e) => e.id)]));

async function whole(q: Record<string, string> = {}): Promise<TDataResponse> {
  const body = await readData({ apiKey: partner.key, orgId: schoolId, searchParams: params(q) });
  expect(body).toBeInstanceOf(JsonStream);
  return (body as JsonStream).parse<TDataResponse>();
}

/** Every page of the same query, joined: what a paging client ends up with. */
async function paged(q: Record<string, string> = {}): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  let cursor: string | null = null;
  do {
    const body: TDataResponse = (await readDataPage({ apiKey: partner.key, orgId: schoolId, searchParams: params({ ...q, limit: "700", ...(cursor ? { cursor } : {}) }) })).parse();
    for (const [entity, list] of Object.entries(body.dados)) (out[entity] ??= []).push(...list!.map((e) => e.id));
    cursor = body.paginacao.proximoCursor;
  } while (cursor);
  return out;
}

beforeAll(async () => {
  process.env.HUB_SECRET = "whole-feed-test-secret-0123456789abcdef";
  resetEnvCache();
  schoolId = (await createInstitution({ name: "Escola Inteira", kind: "school" })).id;
  partner = await createPartner("Edtech Inteira");
  await linkEdtech(schoolId, partner.edtechId);
  await grantAccess(schoolId, partner.applicationId, { allowed: ["nome_usuario"], anonymized: [] });
  const p2025 = await createPeriod({ institutionId: schoolId, code: "2025", name: "2025", startsOn: "2025-02-01", endsOn: "2025-12-01" });
  const p2026 = await createPeriod({ institutionId: schoolId, code: "2026", name: "2026", startsOn: "2026-02-01", endsOn: "2026-12-01" });
  const old = await createClass({ periodId: p2025.id, name: "Turma 2025" });
  const current = await createClass({ periodId: p2026.id, name: "Turma 2026" });
  await createSubject({ institutionId: schoolId, name: "Matemática" });
  ({ profileIds: studentIds } = await importProfiles({
    institutionId: schoolId,
    people: Array.from({ length: 2_300 }, (_, i) => ({ person: { name: `Aluno ${i}` }, role: "aluno" as const })),
  }));
  await enrollStudent({ classId: old.id, studentId: studentIds[0]! });
  await enrollStudent({ classId: current.id, studentId: studentIds[0]! });
  await enrollStudent({ classId: current.id, studentId: studentIds[1]! });
  await waitForVisibleEvents();
});

describe("the whole feed (no limit, no cursor)", () => {
  it("has every event, more than any page holds, in the same order as paging, and nothing cut", async () => {
    const body = await whole();
    const total = Object.values(body.dados).flat().length;
    expect(total).toBe(2 + 2 + 1 + 2_300 + 3);
    expect(body.dados.usuario).toHaveLength(2_300);
    expect(idsOf(body)).toEqual(await paged());
    expect(body.paginacao).toMatchObject({ limite: null, proximoCursor: null });
    expect(body.configuracao.conjuntoDadosUsuario).toEqual({ atributosPermitidos: ["nome_usuario"], atributosAnonimizados: [] });
  });

  it("applies the filters, and its cursorRetomada resumes after everything it returned", async () => {
    const body = await whole({ only: "usuario,turmaAluno", event: "insert" });
    expect(Object.keys(body.dados)).toEqual(["usuario", "turmaAluno"]);
    expect(idsOf(body)).toEqual(await paged({ only: "usuario,turmaAluno", event: "insert" }));
    const next: TDataResponse = (await readDataPage({ apiKey: partner.key, orgId: schoolId, searchParams: params({ cursor: body.paginacao.cursorRetomada }) })).parse();
    expect(Object.values(next.dados).flat()).toEqual([]);
  });

  it("a page is still a page when limit or cursor is given", async () => {
    const body = await readData({ apiKey: partner.key, orgId: schoolId, searchParams: params({ limit: "5" }) });
    expect(body).not.toBeInstanceOf(JsonStream);
  });

  it("errors come before the stream starts: a bad key or a bad parameter is refused, not streamed", async () => {
    await expect(readData({ apiKey: "hub_nope", orgId: schoolId, searchParams: params({}) })).rejects.toMatchObject({ status: 401 });
    await expect(readData({ apiKey: partner.key, orgId: schoolId, searchParams: params({ min_date: "ontem" }) })).rejects.toMatchObject({ status: 400 });
  });
});

describe("code_term", () => {
  it("narrows the entities with a term and keeps those without one (usuario, disciplina)", async () => {
    const body = await whole({ code_term: "2026" });
    expect(body.dados.usuario).toHaveLength(2_300);
    expect(body.dados.disciplina).toHaveLength(1);
    expect(body.dados.turma!.map((e) => e.registro.nome)).toEqual(["Turma 2026"]);
    expect(body.dados.periodo!.map((e) => e.registro.codigo)).toEqual(["2026"]);
    expect(body.dados.turmaAluno).toHaveLength(2);
  });
});

describe("the summary", () => {
  it("is narrowed by user_id and code_term exactly as the data is", async () => {
    // The application's own id of the student, as its data pages carry it.
    const student = await partnerIdOf(applicationPartner(partner.applicationId), studentIds[0]!);
    const queries: Record<string, string>[] = [{ user_id: student }, { code_term: "2025" }, { user_id: student, code_term: "2026" }];
    for (const q of queries) {
      const data = await whole(q);
      const summary = await summarizeEvents({ apiKey: partner.key, orgId: schoolId, searchParams: params(q) });
      const counted = Object.fromEntries(Object.entries(summary.total).map(([entity, kinds]) => [entity, Object.values(kinds as Record<string, number>).reduce((a, b) => a + b, 0)]));
      const listed = Object.fromEntries(Object.entries(data.dados).map(([entity, list]) => [entity, list!.length]));
      expect(counted, JSON.stringify(q)).toEqual(listed);
      if (q.user_id) expect(listed.usuario, "the student is found by its pairwise id").toBeGreaterThan(0);
    }
  });
});
