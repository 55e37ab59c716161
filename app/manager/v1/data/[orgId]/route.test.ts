// GET /manager/v1/data/{org_id} through the real route handlers, with requests built from URL
// strings so query decoding (`+`, `%2B`, spaces) is the platform's.
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import type { Prisma } from "@/lib/generated/prisma/client";
import { createApiKey } from "@/lib/server/api-keys/create-api-key";
import { revokeApiKey } from "@/lib/server/api-keys/revoke-api-key";
import { encodeCursor } from "@/lib/data-api/cursor";
import { flushAccessLogs } from "@/lib/server/audit/log-access";
import { createPartner, grantAccess, linkEdtech, waitForVisibleEvents, type TPartner } from "@/test/fixtures/data-api";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { assignTeacher } from "@/lib/server/school-data/assign-teacher";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { createSubject } from "@/lib/server/school-data/create-subject";
import { enrollStudent } from "@/lib/server/school-data/enroll-student";
import { linkGuardian } from "@/lib/server/school-data/link-guardian";
import { partnerIdOf, applicationPartner, withGlobalIds } from "@/test/fixtures/pairwise";
import { unenrollStudent } from "@/lib/server/school-data/unenroll-student";
import { updatePerson } from "@/lib/server/school-data/update-person";
import { ZDataResponseSchema } from "@/lib/validations/data-api";
import { setupTestDatabase } from "@/test/database";
import { GET as getWithoutOrg } from "../route";
import { GET } from "./route";

const t = setupTestDatabase();

interface Body {
  message?: string;
  fields?: Record<string, string>;
  configuracao?: { conjuntoDadosUsuario: { atributosPermitidos: string[]; atributosAnonimizados: string[] } };
  dados?: Record<string, { id: string; evento: string; ocorridoEm: string; registro: Record<string, unknown> }[]>;
  paginacao?: { limite: number; proximoCursor: string | null; cursorRetomada: string };
}

const f = {
  network: "", norte: "", anexo: "", sul: "", leste: "",
  ana: "", bruno: "", carla: "", rita: "", davi: "", eva: "",
  app1: {} as TPartner, app2: {} as TPartner, outsider: {} as TPartner,
};

/** Every response body, per key, for the privacy scans at the end. */
const bodiesByKey = new Map<string, string[]>();

/**
 * The request as the key's application sends it and its body with person ids mapped back to global
 * ids: these tests are about the Data API's filters and paging; its pairwise ids are checked in
 * lib/server/privacy/pairwise-channels.test.ts. A global user_id in the query is sent as the
 * application's id for that profile.
 */
async function call(pathAndQuery: string, key: string | null): Promise<{ status: number; body: Body; text: string }> {
  const partner = [f.app1, f.app2, f.outsider].find((p) => p.key === key);
  const target = new URL(pathAndQuery, "http://hub.test");
  const userId = target.searchParams.get("user_id");
  if (partner && userId && /^[0-9a-f-]{36}$/.test(userId)) {
    target.searchParams.set("user_id", await partnerIdOf(applicationPartner(partner.applicationId), userId));
    pathAndQuery = target.pathname + target.search;
  }
  const request = new NextRequest(new URL(pathAndQuery, "http://hub.test"), { headers: key === null ? {} : { "x-api-key": key } });
  const segments = new URL(pathAndQuery, "http://hub.test").pathname.split("/").filter(Boolean);
  const orgId = segments[3];
  const response = orgId === undefined ? await getWithoutOrg(request) : await GET(request, { params: Promise.resolve({ orgId: decodeURIComponent(orgId) }) });
  const text = await response.text();
  if (key) bodiesByKey.set(key, [...(bodiesByKey.get(key) ?? []), text]);
  expect(response.headers.get("content-type")).toContain("application/json");
  const body = JSON.parse(text) as Body;
  return { status: response.status, body: partner ? await withGlobalIds(partner.applicationId, body) : body, text };
}

const data = (orgId: string, query = "", key = f.app1.key) => call(`/manager/v1/data/${orgId}${query ? `?${query}` : ""}`, key);

/** Events of a response, flattened (dados groups by entity, so the order is per entity). */
const events = (body: Body) => Object.entries(body.dados ?? {}).flatMap(([entity, list]) => list.map((e) => ({ entity, ...e })));
const idsOf = (body: Body) => events(body).map((e) => e.id).sort();

/** The ids the database holds for a filter, computed independently of the Data API code. */
async function expectedIds(where: Prisma.ChangeEventWhereInput): Promise<string[]> {
  const rows = await t.db.prisma.changeEvent.findMany({ where, select: { id: true } });
  return rows.map((r) => r.id).sort();
}

const inNorte = () => ({ institutionId: { in: [f.norte, f.anexo] } });

beforeAll(async () => {
  process.env.HUB_SECRET = "data-api-route-test-secret-0123456789";
  resetEnvCache();

  // Rede Municipal → Escola Norte → Anexo Norte; Rede Municipal → Escola Sul; Rede Leste → Escola Leste.
  f.network = (await createInstitution({ name: "Rede Municipal", kind: "network" })).id;
  f.norte = (await createInstitution({ name: "Escola Norte", kind: "school", parentId: f.network })).id;
  f.anexo = (await createInstitution({ name: "Anexo Norte", kind: "school", parentId: f.norte })).id;
  f.sul = (await createInstitution({ name: "Escola Sul", kind: "school", parentId: f.network })).id;
  const leste = (await createInstitution({ name: "Rede Leste", kind: "network" })).id;
  f.leste = (await createInstitution({ name: "Escola Leste", kind: "school", parentId: leste })).id;

  const person = (name: string, extra: Record<string, string> = {}) => createPerson({ name, ...extra });
  const profile = async (personId: string, institutionId: string, role: "aluno" | "professor" | "responsavel") =>
    (await createProfile({ personId, institutionId, role })).id;

  // Escola Norte: events 1..4 usuario, 5..6 periodo, 7 disciplina, then turma, links, an update, a delete.
  const ana = await person("Ana Beatriz Souza", { birthDate: "2012-03-04", cpf: "529.982.247-25", email: "ana.souza@escola.test", phone: "(11) 98888-7777" });
  f.ana = await profile(ana.id, f.norte, "aluno");
  f.bruno = await profile((await person("Bruno Lima", { email: "bruno.lima@escola.test" })).id, f.norte, "aluno");
  f.carla = await profile((await person("Carla Mendes", { cpf: "98765432100", phone: "11 3333-2222" })).id, f.norte, "professor");
  f.rita = await profile((await person("Rita Souza", { email: "rita.souza@familia.test" })).id, f.norte, "responsavel");
  const p2026 = await createPeriod({ institutionId: f.norte, code: "2026", name: "Ano letivo 2026", startsOn: "2026-02-01", endsOn: "2026-12-15" });
  const p2027 = await createPeriod({ institutionId: f.norte, code: "2027", name: "Ano letivo 2027", startsOn: "2027-02-01", endsOn: "2027-12-15" });
  const math = await createSubject({ institutionId: f.norte, name: "Matemática" });
  const c6a = await createClass({ periodId: p2026.id, name: "6º A", grade: "6º ano", shift: "manha" });
  const c7b = await createClass({ periodId: p2027.id, name: "7º B" });
  await enrollStudent({ classId: c6a.id, studentId: f.ana });
  const brunoEnrollment = await enrollStudent({ classId: c7b.id, studentId: f.bruno });
  await assignTeacher({ classId: c6a.id, subjectId: math.id, teacherId: f.carla });
  await linkGuardian({ guardianId: f.rita, studentId: f.ana, kinship: "mãe" });
  // A change app1 can see (the e-mail; it does not receive telefone): an update that changed only
  // the phone would not be delivered to it (docs/decisions/016).
  await updatePerson({ personId: ana.id, changes: { phone: "(11) 97777-6666", email: "ana.b.souza@escola.test" } });
  await unenrollStudent({ enrollmentId: brunoEnrollment.id });

  // Anexo Norte (a unit under the school), Escola Sul, Escola Leste.
  f.davi = await profile((await person("Davi Rocha", { cpf: "12345678909", email: "davi@anexo.test", phone: "11 95555-4444", birthDate: "2011-07-08" })).id, f.anexo, "aluno");
  const pAnexo = await createPeriod({ institutionId: f.anexo, code: "2026", name: "2026", startsOn: "2026-02-01", endsOn: "2026-12-15" });
  const cAnexo = await createClass({ periodId: pAnexo.id, name: "Anexo 1" });
  await enrollStudent({ classId: cAnexo.id, studentId: f.davi });
  f.eva = await profile((await person("Eva Nunes", { cpf: "11144477735", email: "eva@sul.test", phone: "11 94444-3333", birthDate: "2010-01-02" })).id, f.sul, "aluno");
  await profile((await person("Leo Leste", { email: "leo@leste.test" })).id, f.leste, "aluno");

  // Deterministic times: the n-th event (by seq) at 2026-03-01 00:00 -03:00 + n hours; the 7th
  // at 07:00:00.500 to check that max_date includes its whole second.
  await t.db.sql.query(`
    UPDATE "ChangeEvent" c SET "occurredAt" = timestamptz '2026-03-01 00:00:00-03' + r.n * interval '1 hour'
                                              + CASE WHEN r.n = 7 THEN interval '500 milliseconds' ELSE interval '0' END
    FROM (SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM "ChangeEvent") r WHERE r.seq = c.seq`);

  // Edtech A (app1, app2) is linked to Rede Municipal; edtech B (outsider) is linked nowhere.
  f.app1 = await createPartner("Edtech A");
  f.app2 = await createPartner("Edtech A", f.app1.edtechId);
  f.outsider = await createPartner("Edtech B");
  await linkEdtech(f.network, f.app1.edtechId);
  // app1: only at Escola Norte (inherited by Anexo); telefone not shared; idade, cpf, e-mail anonymized.
  await grantAccess(f.norte, f.app1.applicationId, { allowed: ["nome_usuario", "idade", "cpf", "email_usuario"], anonymized: ["idade", "cpf", "email_usuario"] });
  // app2: the whole network, everything anonymized; Anexo shares less (no idade, no telefone).
  await grantAccess(f.network, f.app2.applicationId, { allowed: ["nome_usuario", "idade", "cpf", "email_usuario", "telefone"], anonymized: ["nome_usuario", "idade", "cpf", "email_usuario", "telefone"] });
  await grantAccess(f.anexo, f.app2.applicationId, { allowed: ["nome_usuario", "cpf", "email_usuario"], anonymized: [] });
  await waitForVisibleEvents();
});

describe("status codes, in the documented order, each with a JSON body carrying `message`", () => {
  it("401 Unauthorized: key missing, malformed, unknown", async () => {
    for (const key of [null, "", "abc", `hub_00000000_${"x".repeat(43)}`]) {
      const r = await data(f.norte, "", key as string);
      expect(r.status).toBe(401);
      expect(r.body).toEqual({ message: "Unauthorized" });
    }
  });

  it("401 for a revoked key on the very next call", async () => {
    const { apiKey, key } = await createApiKey({ applicationId: f.app1.applicationId });
    expect((await data(f.norte, "", key)).status).toBe(200);
    await revokeApiKey({ applicationId: f.app1.applicationId, apiKeyId: apiKey.id });
    const r = await data(f.norte, "", key);
    expect(r.status).toBe(401);
    expect(r.body).toEqual({ message: "Unauthorized" });
  });

  it("the key is checked first: a bad key with a bad org_id or a bad query is still 401", async () => {
    expect((await data("not-a-uuid", "", "bad")).status).toBe(401);
    expect((await data(f.norte, "min_date=ontem", "bad")).status).toBe(401);
    expect((await call("/manager/v1/data", null)).status).toBe(401);
  });

  it("400 when org_id is not informed (after the key check)", async () => {
    const r = await call("/manager/v1/data", f.app1.key);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain("org_id");
    expect(r.body.fields).toHaveProperty("org_id");
  });

  it("400 when org_id is not a UUID", async () => {
    for (const org of ["123", "escola-norte", `${f.norte}x`, "%20"]) {
      const r = await data(org);
      expect(r.status).toBe(400);
      expect(r.body).toMatchObject({ message: "Parâmetro inválido: org_id", fields: { org_id: expect.any(String) } });
    }
  });

  it("404 for a UUID that is no institution (RFC 4122 or not)", async () => {
    for (const org of ["0f8fad5b-d9cb-469f-a165-70867728950e", "11111111-1111-1111-1111-111111111111"]) {
      const r = await data(org);
      expect(r.status).toBe(404);
      expect(r.body).toEqual({ message: "Instituição não encontrada." });
    }
  });

  it("401 Unauthorized when the edtech has no link to the institution or an ancestor", async () => {
    expect(await data(f.leste)).toMatchObject({ status: 401, body: { message: "Unauthorized" } });
    expect(await data(f.norte, "", f.outsider.key)).toMatchObject({ status: 401, body: { message: "Unauthorized" } });
  });

  it("403 when linked but the application has no access at the institution or an ancestor", async () => {
    // app1 has access at Escola Norte only: Escola Sul and the network itself are refused.
    for (const org of [f.sul, f.network]) {
      const r = await data(org);
      expect(r.status).toBe(403);
      expect(r.body).toEqual({ message: "A aplicação não tem relação com esta instituição." });
    }
  });

  it("access is inherited: app1 reads Anexo Norte through Escola Norte's row", async () => {
    expect((await data(f.anexo)).status).toBe(200);
  });

  it("the query is checked after authorization: 404/401/403 win over a bad parameter", async () => {
    expect((await data("0f8fad5b-d9cb-469f-a165-70867728950e", "limit=0")).status).toBe(404);
    expect((await data(f.leste, "limit=0")).status).toBe(401);
    expect((await data(f.sul, "limit=0")).status).toBe(403);
    expect((await data(f.norte, "limit=0")).status).toBe(400);
  });

  it("records each call in DataAccessLog, refusals included", async () => {
    await data(f.norte, "only=periodo&foo=bar");
    await data(f.sul, "event=insert");
    await flushAccessLogs();
    const logs = await t.db.prisma.dataAccessLog.findMany({ where: { applicationId: f.app1.applicationId }, orderBy: { createdAt: "desc" } });
    expect(logs.map((l) => [l.institutionId, l.channel, l.status, l.eventCount, l.filters])).toEqual(
      expect.arrayContaining([
        [f.norte, "data_api", 200, 3, { only: "periodo" }],
        [f.sul, "data_api", 403, 0, { event: "insert" }],
      ]),
    );
  });
});

describe("response format", () => {
  it("configuracao, dados grouped by entity, paginacao; matches the documented schema", async () => {
    const r = await data(f.norte);
    expect(r.status).toBe(200);
    expect(r.body.configuracao).toEqual({
      conjuntoDadosUsuario: { atributosPermitidos: ["nome_usuario", "idade", "cpf", "email_usuario"], atributosAnonimizados: ["idade", "cpf", "email_usuario"] },
    });
    expect(Object.keys(r.body.dados!)).toEqual(["periodo", "disciplina", "turma", "usuario", "turmaAluno", "disciplinaProfessor", "responsavelAluno"]);
    // Neither limit nor cursor: every event, nothing cut (limite null).
    expect(r.body.paginacao).toEqual({ limite: null, proximoCursor: null, cursorRetomada: expect.any(String) });
    expect(ZDataResponseSchema.safeParse(r.body).success).toBe(true);
    expect(idsOf(r.body)).toEqual(await expectedIds(inNorte()));
    const paged = await data(f.norte, "limit=1000");
    expect(paged.body.paginacao).toEqual({ limite: 1000, proximoCursor: null, cursorRetomada: expect.any(String) });
    expect(ZDataResponseSchema.safeParse(paged.body).success).toBe(true);
  });

  it("events: id, evento, ocorridoEm in the hub's zone, registro; a delete carries the last state", async () => {
    const r = await data(f.norte, "only=turmaAluno&code_term=2027");
    const [insert, remove] = r.body.dados!.turmaAluno!;
    expect(insert).toMatchObject({ evento: "insert", registro: { alunoId: f.bruno, codigoPeriodo: "2027" } });
    expect(remove).toMatchObject({ evento: "delete", registro: insert!.registro });
    expect(insert!.ocorridoEm).toMatch(/^2026-03-01T\d{2}:00:00\.000-03:00$/);
    const periodo = (await data(f.norte, "only=periodo")).body.dados!.periodo!;
    expect(periodo.slice(0, 2).map((e) => e.ocorridoEm)).toEqual(["2026-03-01T05:00:00.000-03:00", "2026-03-01T06:00:00.000-03:00"]);
  });
});

describe("filters, alone and combined", () => {
  it("event", async () => {
    expect(idsOf((await data(f.norte, "event=delete")).body)).toEqual(await expectedIds({ ...inNorte(), kind: "delete" }));
    expect(idsOf((await data(f.norte, "event=insert,update")).body)).toEqual(await expectedIds({ ...inNorte(), kind: { in: ["insert", "update"] } }));
  });

  it("only: dados has just those entities", async () => {
    const r = await data(f.norte, "only=turmaAluno");
    expect(Object.keys(r.body.dados!)).toEqual(["turmaAluno"]);
    expect(idsOf(r.body)).toEqual(await expectedIds({ ...inNorte(), entity: "turmaAluno" }));
    const two = await data(f.norte, "only=usuario,turma");
    expect(Object.keys(two.body.dados!)).toEqual(["turma", "usuario"]);
    expect(idsOf(two.body)).toEqual(await expectedIds({ ...inNorte(), entity: { in: ["usuario", "turma"] } }));
  });

  it("except", async () => {
    const r = await data(f.norte, "except=usuario,turma");
    expect(Object.keys(r.body.dados!)).toEqual(["periodo", "disciplina", "turmaAluno", "disciplinaProfessor", "responsavelAluno"]);
    expect(idsOf(r.body)).toEqual(await expectedIds({ ...inNorte(), entity: { notIn: ["usuario", "turma"] } }));
  });

  it("only and except together; an empty selection answers empty dados", async () => {
    const r = await data(f.norte, "only=usuario,turma,periodo&except=turma");
    expect(Object.keys(r.body.dados!)).toEqual(["periodo", "usuario"]);
    const none = await data(f.norte, "only=turma&except=turma");
    expect(none).toMatchObject({ status: 200, body: { dados: {} } });
  });

  it("user_id: the person's usuario events and the links they are part of", async () => {
    const r = await data(f.norte, `user_id=${f.ana}`);
    expect(events(r.body).map((e) => `${e.entity}:${e.evento}`).sort()).toEqual(["responsavelAluno:insert", "turmaAluno:insert", "usuario:insert", "usuario:update"]);
    expect(idsOf(r.body)).toEqual(await expectedIds({ ...inNorte(), profileIds: { has: f.ana } }));
    expect(idsOf((await data(f.norte, `user_id=${f.rita}`)).body)).toHaveLength(2);
    expect(idsOf((await data(f.norte, `user_id=${f.eva}`)).body)).toEqual([]);
  });

  it("code_term: the period, its classes, enrollments and teacher assignments; entities without a period pass", async () => {
    const WITH_PERIOD = ["periodo", "turma", "turmaAluno", "disciplinaProfessor"];
    const r = await data(f.norte, "code_term=2027");
    expect(events(r.body).filter((e) => WITH_PERIOD.includes(e.entity)).map((e) => `${e.entity}:${e.evento}`).sort()).toEqual(["periodo:insert", "turma:insert", "turmaAluno:delete", "turmaAluno:insert"]);
    expect(events(r.body).some((e) => e.entity === "usuario")).toBe(true);
    const y2026 = await data(f.norte, "code_term=2026");
    expect(idsOf(y2026.body)).toEqual(await expectedIds({ ...inNorte(), OR: [{ periodCode: "2026" }, { periodCode: null }] }));
    expect(events(y2026.body).some((e) => e.entity === "disciplinaProfessor")).toBe(true);
    const none = await data(f.norte, "code_term=1999");
    expect(idsOf(none.body)).toEqual(await expectedIds({ ...inNorte(), periodCode: null }));
    expect(events(none.body).filter((e) => WITH_PERIOD.includes(e.entity))).toEqual([]);
  });

  it.each([
    ["a literal +", "min_date=2026/03/01+05:00:00&max_date=2026/03/01+07:00:00"],
    ["%2B", "min_date=2026/03/01%2B05:00:00&max_date=2026/03/01%2B07:00:00"],
    ["a space", "min_date=2026/03/01 05:00:00&max_date=2026/03/01%2007:00:00"],
  ])("min_date and max_date with %s, in the hub's zone, both ends inclusive", async (_, query) => {
    const r = await data(f.norte, query);
    // 05:00 to 07:00:00.999 at -03:00; the 7th event is at 07:00:00.500.
    const expected = await expectedIds({ ...inNorte(), occurredAt: { gte: new Date("2026-03-01T08:00:00Z"), lt: new Date("2026-03-01T10:00:01Z") } });
    expect(expected).toHaveLength(3);
    expect(idsOf(r.body)).toEqual(expected);
    expect(events(r.body).map((e) => `${e.entity}:${e.ocorridoEm}`).sort()).toEqual([
      "disciplina:2026-03-01T07:00:00.500-03:00",
      "periodo:2026-03-01T05:00:00.000-03:00",
      "periodo:2026-03-01T06:00:00.000-03:00",
    ]);
  });

  it("min_date alone and max_date alone", async () => {
    expect(idsOf((await data(f.norte, "min_date=2026/03/01+15:00:00")).body)).toEqual(
      await expectedIds({ ...inNorte(), occurredAt: { gte: new Date("2026-03-01T18:00:00Z") } }),
    );
    expect(idsOf((await data(f.norte, "max_date=2026/03/01+03:59:59")).body)).toEqual(
      await expectedIds({ ...inNorte(), occurredAt: { lt: new Date("2026-03-01T07:00:00Z") } }),
    );
  });

  it("all filters combined", async () => {
    const r = await data(f.norte, `user_id=${f.ana}&code_term=2026&only=turmaAluno,usuario&except=usuario&event=insert&min_date=2026/03/01+00:00:00&max_date=2026/03/02+00:00:00`);
    expect(events(r.body).map((e) => [e.entity, e.evento, e.registro.alunoId])).toEqual([["turmaAluno", "insert", f.ana]]);
    const u = await data(f.norte, `user_id=${f.ana}&only=usuario&event=update`);
    expect(events(u.body).map((e) => [e.entity, e.evento, e.registro.id])).toEqual([["usuario", "update", f.ana]]);
  });

  it("a network read covers its descendants, not other networks", async () => {
    const r = await data(f.network, "", f.app2.key);
    expect(r.status).toBe(200);
    expect(idsOf(r.body)).toEqual(await expectedIds({ institutionId: { in: [f.network, f.norte, f.anexo, f.sul] } }));
    const network = await data(f.network, `user_id=${f.davi}`, f.app2.key);
    expect(idsOf(network.body)).toEqual(await expectedIds({ profileIds: { has: f.davi } }));
  });
});

describe("bad input is a 400 naming the parameter, never a 5xx", () => {
  it.each([
    ["min_date=2026-03-01", "min_date"],
    ["min_date=2026/13/01+00:00:00", "min_date"],
    ["max_date=2026/02/29+10:00:00", "max_date"],
    ["max_date=2026/03/01T10:00:00", "max_date"],
    ["max_date=2026/03/01+10:00", "max_date"],
    ["event=create", "event"],
    ["event=insert,remove", "event"],
    ["only=aluno", "only"],
    ["except=usuarios", "except"],
    ["user_id=ana", "user_id"],
    ["limit=0", "limit"],
    ["limit=-5", "limit"],
    ["limit=10001", "limit"],
    ["limit=ten", "limit"],
    ["cursor=xyz!", "cursor"],
    [`cursor=${Buffer.from("1.99999999999999999999.1").toString("base64url")}`, "cursor"],
    ["code_term=2026'%20OR%201=1", "code_term"],
  ])("%s", async (query, name) => {
    const r = await data(f.norte, query);
    expect(r.status).toBe(400);
    expect(r.body.message).toContain(name);
    expect(r.body.fields).toHaveProperty(name);
  });

  it("min_date after max_date", async () => {
    const r = await data(f.norte, "min_date=2026/03/02+00:00:00&max_date=2026/03/01+00:00:00");
    expect(r).toMatchObject({ status: 400, body: { message: "Parâmetro inválido: min_date, max_date" } });
  });

  it("unknown parameters are ignored", async () => {
    expect((await data(f.norte, "foo=1&org_id=x&LIMIT=0")).status).toBe(200);
  });
});

describe("paging", () => {
  it("limit 1: every event exactly once, in (txid, seq) order", async () => {
    const all = await t.db.prisma.changeEvent.findMany({ where: inNorte(), orderBy: [{ txid: "asc" }, { seq: "asc" }], select: { id: true } });
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 100; page++) {
      const r = await data(f.norte, `limit=1${cursor ? `&cursor=${cursor}` : ""}`);
      seen.push(...idsOf(r.body));
      cursor = r.body.paginacao!.proximoCursor;
      if (!cursor) break;
    }
    expect(seen).toEqual(all.map((e) => e.id));
  });

  it("limit 3 with filters: exactly once, pages in order", async () => {
    const all = await t.db.prisma.changeEvent.findMany({ where: { ...inNorte(), kind: "insert" }, orderBy: [{ txid: "asc" }, { seq: "asc" }], select: { id: true } });
    const position = new Map(all.map((e, i) => [e.id, i]));
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const r: Awaited<ReturnType<typeof data>> = await data(f.norte, `limit=3&event=insert${cursor ? `&cursor=${cursor}` : ""}`);
      expect(r.body.paginacao!.limite).toBe(3);
      pages.push(idsOf(r.body));
      cursor = r.body.paginacao!.proximoCursor;
    } while (cursor && pages.length < 100);
    expect(pages.flat().sort()).toEqual(all.map((e) => e.id).sort());
    expect(pages.slice(0, -1).every((p) => p.length === 3)).toBe(true);
    for (let i = 1; i < pages.length; i++) {
      expect(Math.max(...pages[i - 1]!.map((id) => position.get(id)!))).toBeLessThan(Math.min(...pages[i]!.map((id) => position.get(id)!)));
    }
  });

  it("cursorRetomada of the last page returns only what happens afterwards", async () => {
    const last = await data(f.sul, "", f.app2.key);
    expect(last.body.paginacao!.proximoCursor).toBeNull();
    const resume = last.body.paginacao!.cursorRetomada;
    expect((await data(f.sul, `cursor=${resume}`, f.app2.key)).body.dados!.usuario).toEqual([]);
    const person = await createPerson({ name: "Fábio Novo", email: "fabio@sul.test" });
    const profile = await createProfile({ personId: person.id, institutionId: f.sul, role: "aluno" });
    await waitForVisibleEvents();
    const after = await data(f.sul, `cursor=${resume}`, f.app2.key);
    expect(events(after.body).map((e) => [e.entity, e.registro.id])).toEqual([["usuario", profile.id]]);
  });

  it("a cursor past every event answers an empty page, not an error", async () => {
    const r = await data(f.norte, `cursor=${encodeCursor({ txid: "9223372036854775807", seq: "9223372036854775807" })}`);
    expect(r.status).toBe(200);
    expect(idsOf(r.body)).toEqual([]);
    expect(r.body.paginacao!.proximoCursor).toBeNull();
  });
});

describe("privacy: configuracao decides what each application sees", () => {
  const usuarios = (body: Body) => (body.dados?.usuario ?? []).map((e) => e.registro);
  const byProfile = (body: Body, id: string) => usuarios(body).find((r) => r.id === id)!;

  it("app1 at Escola Norte: telefone absent, nome_usuario in clear, idade/cpf/e-mail pseudonymized, null stays null", async () => {
    const r = await data(f.norte, "only=usuario");
    for (const rec of usuarios(r.body)) expect(rec).not.toHaveProperty("telefone");
    const ana = byProfile(r.body, f.ana);
    expect(ana).toMatchObject({ nome_usuario: "Ana Beatriz Souza", perfil: "aluno" });
    expect(ana.cpf).toMatch(/^anon:[0-9a-f]{16}$/);
    expect(ana.idade).toMatch(/^anon:[0-9a-f]{16}$/);
    expect(ana.email_usuario).toMatch(/^u[0-9a-f]{16}@anonimo\.invalid$/);
    const bruno = byProfile(r.body, f.bruno);
    expect(bruno).toMatchObject({ cpf: null, idade: null });
  });

  it("the same person keeps the same pseudonyms across calls of one application", async () => {
    const a = byProfile((await data(f.norte, "only=usuario")).body, f.ana);
    const b = byProfile((await data(f.norte, `only=usuario&user_id=${f.ana}&event=insert`)).body, f.ana);
    expect([b.cpf, b.email_usuario, b.idade]).toEqual([a.cpf, a.email_usuario, a.idade]);
  });

  it("two applications get different pseudonyms for the same person", async () => {
    const one = byProfile((await data(f.norte, "only=usuario")).body, f.ana);
    const two = byProfile((await data(f.norte, "only=usuario", f.app2.key)).body, f.ana);
    expect(two.cpf).toMatch(/^anon:[0-9a-f]{16}$/);
    expect(two.cpf).not.toBe(one.cpf);
    expect(two.email_usuario).not.toBe(one.email_usuario);
  });

  it("a network read applies the strictest setting of its subtree to every record", async () => {
    // app2: network anonymizes all; Anexo allows only nome_usuario, cpf and e-mail.
    const r = await data(f.network, "only=usuario", f.app2.key);
    expect(r.body.configuracao!.conjuntoDadosUsuario).toEqual({
      atributosPermitidos: ["nome_usuario", "cpf", "email_usuario"],
      atributosAnonimizados: ["nome_usuario", "cpf", "email_usuario"],
    });
    for (const rec of usuarios(r.body)) {
      expect(rec).not.toHaveProperty("idade");
      expect(rec).not.toHaveProperty("telefone");
      expect(String(rec.nome_usuario)).toMatch(/^Usuário [0-9a-f]{8}$/);
    }
    // Escola Sul alone has no stricter row below it: everything shared, all anonymized.
    const sul = await data(f.sul, "only=usuario", f.app2.key);
    expect(sul.body.configuracao!.conjuntoDadosUsuario.atributosPermitidos).toEqual(["nome_usuario", "idade", "cpf", "email_usuario", "telefone"]);
    expect(byProfile(sul.body, f.eva).telefone).toMatch(/^anon:[0-9a-f]{16}$/);
  });

  it("no response body ever contains the raw value of an anonymized or withheld attribute", async () => {
    // app1 never sees idade, cpf, e-mail or telefone in clear; app2 sees nothing personal in clear.
    const withheld = ["2012-03-04", "52998224725", "ana.souza@escola.test", "ana.b.souza@escola.test", "11988887777", "11977776666", "bruno.lima@escola.test", "98765432100", "1133332222", "rita.souza@familia.test", "12345678909", "davi@anexo.test", "11955554444", "2011-07-08"];
    const names = ["Ana Beatriz Souza", "Bruno Lima", "Carla Mendes", "Rita Souza", "Davi Rocha", "Eva Nunes", "11144477735", "eva@sul.test", "11944443333", "2010-01-02"];
    const app1Bodies = bodiesByKey.get(f.app1.key) ?? [];
    const app2Bodies = bodiesByKey.get(f.app2.key) ?? [];
    expect(app1Bodies.length).toBeGreaterThan(30);
    expect(app2Bodies.length).toBeGreaterThan(5);
    for (const body of app1Bodies) for (const raw of withheld) expect(body).not.toContain(raw);
    for (const body of app2Bodies) for (const raw of [...withheld, ...names]) expect(body).not.toContain(raw);
    // The clear name app1 is allowed does appear, so the scan is looking at real payloads.
    expect(app1Bodies.some((b) => b.includes("Ana Beatriz Souza"))).toBe(true);
  });
});
