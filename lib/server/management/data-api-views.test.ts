// The manager's views of the Data API — the "what this application sees" preview and the summary
// dashboard — must show exactly what the Data API returns. Changing an attribute from allowed to
// anonymized changes the next Data API response, its `configuracao`, and the preview alike.
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { flushAccessLogs } from "@/lib/server/audit/log-access";
import { readDataPage } from "@/lib/server/data-api/read-data-page";
import { summarizeEvents } from "@/lib/server/data-api/summarize-events";
import { createPartner, grantAccess, linkEdtech, waitForVisibleEvents, type TPartner } from "@/test/fixtures/data-api";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { updatePerson } from "@/lib/server/school-data/update-person";
import { setupTestDatabase } from "@/test/database";
import { listDataAccessLogs } from "./list-data-access-logs";
import { previewApplicationData } from "./preview-application-data";
import { resolveManagerScope } from "./resolve-manager-scope";
import { runSchoolDataCommand } from "./run-school-data-command";
import { setApplicationAccess } from "./set-application-access";
import { summarizeInstitution } from "./summarize-institution";
import { createManagementFixture, type TManagementFixture } from "@/test/fixtures/management";
import { applicationPartner, partnerIdOf } from "@/test/fixtures/pairwise";

setupTestDatabase();
let f: TManagementFixture;
let app: TPartner;
let other: TPartner;

beforeAll(async () => {
  process.env.HUB_SECRET = "management-data-api-views-secret-0123456789";
  resetEnvCache();
  f = await createManagementFixture();
  app = await createPartner("Leitora");
  other = await createPartner("Outra Leitora");
  await linkEdtech(f.networkId, app.edtechId);
  await linkEdtech(f.networkId, other.edtechId);
  await grantAccess(f.networkId, app.applicationId, { allowed: ["nome_usuario", "idade"], anonymized: [] });
  await grantAccess(f.school1.id, app.applicationId, { allowed: ["nome_usuario", "idade", "email_usuario", "telefone"], anonymized: ["email_usuario"] });
  await grantAccess(f.networkId, other.applicationId, { allowed: ["nome_usuario", "email_usuario"], anonymized: [] });
});

/** The last usuario event of one profile, as GET /manager/v1/data/{org}?user_id=&only=usuario returns it. */
async function fromDataApi(partner: TPartner, orgId: string, profileId: string) {
  await waitForVisibleEvents();
  // The application names the profile by its own (pairwise) id.
  const userId = await partnerIdOf(applicationPartner(partner.applicationId), profileId);
  const body = (await readDataPage({ apiKey: partner.key, orgId, searchParams: new URLSearchParams({ user_id: userId, only: "usuario" }) })).parse();
  return { configuracao: body.configuracao, evento: body.dados.usuario!.at(-1)! };
}

const rules = (overrides: Record<string, string>) =>
  ({ nome_usuario: "permitido", idade: "permitido", cpf: "nao_compartilhado", email_usuario: "anonimizado", telefone: "permitido", ...overrides }) as const;

describe("the 'what this application sees' preview", () => {
  it("equals the Data API: configuracao and the record, pseudonyms included", async () => {
    const student = f.school1.studentId;
    const preview = await previewApplicationData({ scope: f.manager1, institutionId: f.school1.id, applicationId: app.applicationId, profileId: student });
    const api = await fromDataApi(app, f.school1.id, student);
    expect(preview).toMatchObject({ status: "ok", configuracao: api.configuracao, evento: api.evento });
    expect(api.configuracao.conjuntoDadosUsuario).toEqual({ atributosPermitidos: ["nome_usuario", "idade", "email_usuario", "telefone"], atributosAnonimizados: ["email_usuario"] });
    if (preview.status !== "ok") return;
    expect(preview.evento!.registro.email_usuario).toMatch(/@anonimo\.invalid$/);
    expect(preview.original!.email_usuario).toMatch(/@teste\.br$/);
  });

  it("allowed → anonymized changes the next Data API response, its configuracao and the preview alike", async () => {
    const student = f.school1.studentId;
    const before = await fromDataApi(app, f.school1.id, student);
    expect(before.evento.registro.nome_usuario).toBe("Aluno Escola Um");
    await setApplicationAccess({ scope: f.manager1, settings: { institutionId: f.school1.id, applicationId: app.applicationId, rules: rules({ nome_usuario: "anonimizado" }) } });
    const after = await fromDataApi(app, f.school1.id, student);
    expect(after.configuracao.conjuntoDadosUsuario.atributosAnonimizados).toEqual(["nome_usuario", "email_usuario"]);
    expect(after.evento.registro.nome_usuario).toMatch(/^Usuário [0-9a-f]{8}$/);
    const preview = await previewApplicationData({ scope: f.manager1, institutionId: f.school1.id, applicationId: app.applicationId, profileId: student });
    expect(preview).toMatchObject({ status: "ok", configuracao: after.configuracao, evento: after.evento });
    // Another application sees another pseudonym world: its own rules, its own values.
    const otherApi = await fromDataApi(other, f.school1.id, student);
    const otherPreview = await previewApplicationData({ scope: f.manager1, institutionId: f.school1.id, applicationId: other.applicationId, profileId: student });
    expect(otherPreview).toMatchObject({ configuracao: otherApi.configuracao, evento: otherApi.evento });
    expect(otherApi.evento.registro.nome_usuario).toBe("Aluno Escola Um");
  });

  it("follows a later change of the record (latest event) and the network's stricter view", async () => {
    await updatePerson({ personId: f.school1.studentPersonId, changes: { phone: "11955554444" } });
    const api = await fromDataApi(app, f.school1.id, f.school1.studentId);
    expect(api.evento.evento).toBe("update");
    expect(api.evento.registro.telefone).toBe("11955554444");
    expect(await previewApplicationData({ scope: f.manager1, institutionId: f.school1.id, applicationId: app.applicationId, profileId: f.school1.studentId })).toMatchObject({ evento: api.evento });
    // Read at the network, the school's own rules make the view stricter (most restrictive wins).
    const networkApi = await fromDataApi(app, f.networkId, f.school1.studentId);
    const networkPreview = await previewApplicationData({ scope: f.network, institutionId: f.networkId, applicationId: app.applicationId, profileId: f.school1.studentId });
    expect(networkPreview).toMatchObject({ configuracao: networkApi.configuracao, evento: networkApi.evento });
    // Without a profile, the preview picks the most recently changed one.
    expect(await previewApplicationData({ scope: f.manager1, institutionId: f.school1.id, applicationId: app.applicationId })).toMatchObject({ evento: api.evento });
  });

  it("'inherit' removes the school's own rules and the network's apply again", async () => {
    await setApplicationAccess({ scope: f.manager1, remove: { institutionId: f.school1.id, applicationId: app.applicationId } });
    const api = await fromDataApi(app, f.school1.id, f.school1.studentId);
    expect(api.configuracao.conjuntoDadosUsuario).toEqual({ atributosPermitidos: ["nome_usuario", "idade"], atributosAnonimizados: [] });
    expect(await previewApplicationData({ scope: f.manager1, institutionId: f.school1.id, applicationId: app.applicationId, profileId: f.school1.studentId })).toMatchObject({ configuracao: api.configuracao, evento: api.evento });
  });

  it("an application without a contract or access says so", async () => {
    const stranger = await createPartner("Sem Contrato");
    expect(await previewApplicationData({ scope: f.manager1, institutionId: f.school1.id, applicationId: stranger.applicationId })).toEqual({ status: "no_contract" });
    await linkEdtech(f.school1.id, stranger.edtechId);
    expect(await previewApplicationData({ scope: f.manager1, institutionId: f.school1.id, applicationId: stranger.applicationId })).toEqual({ status: "not_enabled" });
  });
});

describe("the summary dashboard", () => {
  it("has the Data API summary's tree, for every filter combination", async () => {
    // A third level, and some school changes on both schools.
    const annex = await createInstitution({ name: "Anexo da Escola Um", kind: "school", parentId: f.school1.id });
    const network = await resolveManagerScope({ personId: f.network.personId, profileId: f.network.profileId });
    await runSchoolDataCommand({ scope: network, command: { type: "createSubject", input: { institutionId: annex.id, name: "Artes" } } });
    await runSchoolDataCommand({ scope: network, command: { type: "updateClass", classId: f.school2.classId, changes: { name: "7º A renomeada" } } });
    // The dashboard counts the whole log; a partner sees the same events when it receives every
    // attribute and its access predates the data (docs/decisions/016): hidden-only updates and
    // history before a grant are what would set the two apart.
    const everything = await createPartner("Vê Tudo");
    await linkEdtech(f.networkId, everything.edtechId);
    await grantAccess(f.networkId, everything.applicationId, { allowed: ["nome_usuario", "idade", "cpf", "email_usuario", "telefone"], anonymized: [] });
    const today = new Intl.DateTimeFormat("en-CA", { timeZone: "America/Sao_Paulo" }).format(new Date());
    const cases: [Record<string, string | string[]>, Record<string, string>][] = [
      [{}, {}],
      [{ evento: ["insert", "update"] }, { event: "insert,update" }],
      [{ entidade: ["turma", "disciplina"] }, { only: "turma,disciplina" }],
      [{ de: today, ate: today, evento: "delete" }, { min_date: `${today.replaceAll("-", "/")}+00:00:00`, max_date: `${today.replaceAll("-", "/")}+23:59:59`, event: "delete" }],
    ];
    for (const [filters, query] of cases) {
      const mine = await summarizeInstitution({ scope: network, institutionId: f.networkId, filters });
      const api = await summarizeEvents({ apiKey: everything.key, orgId: f.networkId, searchParams: new URLSearchParams(query) });
      expect(mine.tree).toEqual(api);
    }
    const all = await summarizeInstitution({ scope: network, institutionId: f.networkId, filters: {} });
    expect(all.tree.filhos.map((c) => c.instituicao.nome)).toEqual(["Escola Dois", "Escola Um"]);
    expect(all.tree.filhos[1]!.filhos[0]!.contagens.disciplina).toEqual({ insert: 1, update: 0, delete: 0 });
    const todayPoint = all.timeline.points.find((p) => p.bucket === today)!;
    const totalInserts = Object.values(all.tree.total).reduce((n, c) => n + (c.insert ?? 0), 0);
    expect(todayPoint.counts.insert).toBe(totalInserts);
    expect(all.timeline.points.length).toBe(31);
  });

  it("a school manager's dashboard stops at the school; bad filters are validation errors", async () => {
    const mine = await summarizeInstitution({ scope: f.manager2, institutionId: f.school2.id, filters: {} });
    expect(mine.tree.instituicao.id).toBe(f.school2.id);
    await expect(summarizeInstitution({ scope: f.manager2, institutionId: f.school1.id, filters: {} })).rejects.toMatchObject({ code: "not_found" });
    await expect(summarizeInstitution({ scope: f.manager2, institutionId: f.school2.id, filters: { de: "2026-02-31" } })).rejects.toMatchObject({ name: "ZodError" });
  });
});

describe("the access log", () => {
  it("lists the reads of the institution and its descendants, newest first, filterable by application", async () => {
    await flushAccessLogs();
    const network = await listDataAccessLogs({ scope: f.network, institutionId: f.networkId, page: 1, pageSize: 100 });
    expect(network.total).toBeGreaterThan(5);
    expect(network.items[0]!.at >= network.items.at(-1)!.at).toBe(true);
    expect(new Set(network.items.map((r) => r.partner.name))).toEqual(new Set(["Leitora app", "Outra Leitora app", "Vê Tudo app"]));
    const school = await listDataAccessLogs({ scope: f.manager1, institutionId: f.school1.id, applicationId: other.applicationId, page: 1 });
    expect(school.items.every((r) => r.institutionId === f.school1.id && r.partner.id === other.applicationId)).toBe(true);
    expect(school.items[0]).toMatchObject({ channel: "data_api", status: 200, filters: { user_id: await partnerIdOf(applicationPartner(other.applicationId), f.school1.studentId), only: "usuario" } });
    await expect(listDataAccessLogs({ scope: f.manager2, institutionId: f.school1.id, page: 1 })).rejects.toMatchObject({ code: "not_found" });
  });
});
