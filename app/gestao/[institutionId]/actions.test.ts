// The manager area's server actions as the browser calls them (FormData in, form state out), with
// only the session mocked: a server action is a public endpoint, so the reach is re-checked on
// every call and a school-1 manager replaying a form with school 2's ids gets "not found" —
// never a 5xx, never a write.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { TFormState } from "@/lib/validations/form";
import { createManagementFixture, type TManagementFixture } from "@/test/fixtures/management";
import { setupTestDatabase } from "@/test/database";

const session = vi.hoisted(() => ({ user: null as null | { personId: string; name: string; profile: { id: string; role: "gestor" | "professor"; institution: { id: string; name: string; kind: "school" } } | null } }));
vi.mock("@/lib/server/auth/current-user", () => ({ getCurrentUser: async () => session.user }));
vi.mock("next/cache", () => ({ revalidatePath: vi.fn() }));
const redirects = vi.hoisted(() => [] as string[]);
vi.mock("next/navigation", () => ({
  redirect: (to: string) => {
    redirects.push(to);
    throw Object.assign(new Error("NEXT_REDIRECT"), { digest: `NEXT_REDIRECT;replace;${to};307;` });
  },
  unstable_rethrow: (error: unknown) => {
    if (error instanceof Error && error.message === "NEXT_REDIRECT") throw error;
  },
}));

const { schoolDataAction, applicationAccessAction, placementAction, toolSharingAction } = await import("./actions");
const { createTestTool } = await import("@/test/fixtures/launch");

const t = setupTestDatabase();
let f: TManagementFixture;
const idle: TFormState = { status: "idle" };

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.append(name, value);
  return data;
}

function as(scope: TManagementFixture["manager1"], role: "gestor" | "professor" = "gestor") {
  session.user = { personId: scope.personId, name: "Gestor", profile: { id: scope.profileId, role, institution: { id: scope.rootId, name: "", kind: "school" } } };
}

beforeAll(async () => {
  f = await createManagementFixture();
});

beforeEach(() => {
  as(f.manager1);
});

describe("schoolDataAction", () => {
  it("creates a period, with every validation message next to its field first", async () => {
    const bad = await schoolDataAction(f.school1.id, idle, form({ type: "createPeriod", institutionId: f.school1.id, code: "20x7", name: "", startsOn: "2027-02-30", endsOn: "" }));
    expect(bad).toMatchObject({ status: "error", message: "Corrija os campos indicados.", values: { code: "20x7" } });
    if (bad.status !== "error") return;
    expect(Object.keys(bad.fieldErrors).sort()).toEqual(["code", "endsOn", "name", "startsOn"]);
    const ok = await schoolDataAction(f.school1.id, idle, form({ type: "createPeriod", institutionId: f.school1.id, code: "2027", name: "Ano 2027", startsOn: "2027-02-01", endsOn: "2027-12-10" }));
    expect(ok).toMatchObject({ status: "success", message: "Período criado." });
    expect(await t.db.prisma.period.count({ where: { institutionId: f.school1.id, code: "2027" } })).toBe(1);
  });

  it("replayed with school 2's ids: not found, nothing written", async () => {
    const events = await t.db.prisma.changeEvent.count();
    const replays: Record<string, string>[] = [
      { type: "deleteClass", classId: f.school2.classId },
      { type: "unenrollStudent", enrollmentId: f.school2.enrollmentId },
      { type: "createPeriod", institutionId: f.school2.id, code: "2028", name: "x", startsOn: "2028-02-01", endsOn: "2028-12-01" },
      { type: "updatePerson", personId: f.school2.studentPersonId, name: "Invadido" },
    ];
    for (const fields of replays) {
      // The bound institution is the page's; the ids in the form are what an attacker controls.
      const state = await schoolDataAction(f.school1.id, idle, form(fields));
      expect(state).toMatchObject({ status: "error" });
      expect(state.status === "error" && state.message).toMatch(/não encontrad/);
    }
    expect(await t.db.prisma.changeEvent.count()).toBe(events);
  });

  it("malformed input and unknown commands are form errors, not 5xx", async () => {
    expect(await schoolDataAction(f.school1.id, idle, form({ type: "deleteClass", classId: "' or 1=1" }))).toMatchObject({ status: "error", fieldErrors: { classId: "Identificador inválido" } });
    expect(await schoolDataAction(f.school1.id, idle, form({ type: "dropDatabase" }))).toMatchObject({ status: "error" });
  });

  it("refuses a signed-out user and a profile that is not a gestor", async () => {
    session.user = null;
    expect(await schoolDataAction(f.school1.id, idle, form({ type: "deleteClass", classId: f.school1.classId }))).toMatchObject({ status: "error", message: "Sua sessão expirou. Entre novamente." });
    const teacher = await t.db.prisma.profile.findUniqueOrThrow({ where: { id: f.school1.teacherId }, select: { personId: true } });
    session.user = { personId: teacher.personId, name: "Prof", profile: { id: f.school1.teacherId, role: "professor", institution: { id: f.school1.id, name: "", kind: "school" } } };
    expect(await schoolDataAction(f.school1.id, idle, form({ type: "deleteClass", classId: f.school1.classId }))).toMatchObject({ status: "error", message: "Esta área é só para gestores." });
    expect(await t.db.prisma.class.count({ where: { id: f.school1.classId } })).toBe(1);
  });

  it("a delete from a detail page redirects to the list, only inside the institution", async () => {
    const { id } = await t.db.prisma.class.create({ data: { institutionId: f.school1.id, periodId: f.school1.periodId, name: "Turma para excluir" } });
    redirects.length = 0;
    await expect(schoolDataAction(f.school1.id, idle, form({ type: "deleteClass", classId: id, next: `/gestao/${f.school1.id}/turmas` }))).rejects.toThrow("NEXT_REDIRECT");
    expect(redirects).toEqual([`/gestao/${f.school1.id}/turmas`]);
    const other = await t.db.prisma.class.create({ data: { institutionId: f.school1.id, periodId: f.school1.periodId, name: "Outra para excluir" } });
    expect(await schoolDataAction(f.school1.id, idle, form({ type: "deleteClass", classId: other.id, next: "https://evil.example/" }))).toMatchObject({ status: "success" });
  });
});

describe("access and placement actions", () => {
  it("school 2's sharing rules and placements are out of a school-1 manager's reach", async () => {
    const rules = { nome_usuario: "permitido", idade: "permitido", cpf: "permitido", email_usuario: "permitido", telefone: "permitido" };
    expect(await applicationAccessAction(f.school2.id, idle, form({ applicationId: f.school2.id, mode: "propria", ...rules }))).toMatchObject({ status: "error", message: "Instituição não encontrada." });
    expect(await placementAction(f.school2.id, idle, form({ toolId: f.school2.id, audience: "escola" }))).toMatchObject({ status: "error", message: "Instituição não encontrada." });
  });

  it("tool rules: school 2 is out of reach; a bad rule names its field; a good form saves and says so", async () => {
    const rules = { nome_usuario: "nao_compartilhado", idade: "nao_compartilhado", cpf: "nao_compartilhado", email_usuario: "anonimizado", telefone: "nao_compartilhado" };
    const tool = await createTestTool();
    await t.db.prisma.edtechLink.create({ data: { institutionId: f.networkId, edtechId: tool.edtechId } });
    expect(await toolSharingAction(f.school2.id, idle, form({ toolId: tool.id, mode: "propria", ...rules }))).toMatchObject({ status: "error", message: "Instituição não encontrada." });
    expect(await toolSharingAction(f.school1.id, idle, form({ toolId: tool.id, mode: "propria", ...rules, nome_usuario: "sim" }))).toMatchObject({ status: "error", fieldErrors: { nome_usuario: "Escolha uma opção" } });
    expect(await t.db.prisma.toolSharing.count({ where: { toolId: tool.id } })).toBe(0);
    expect(await toolSharingAction(f.school1.id, idle, form({ toolId: tool.id, mode: "propria", ...rules }))).toMatchObject({ status: "success", message: expect.stringContaining("Regras de compartilhamento salvas") });
    expect(await t.db.prisma.toolSharing.findMany({ where: { toolId: tool.id }, select: { institutionId: true, allowedAttributes: true, anonymizedAttributes: true } })).toEqual([
      { institutionId: f.school1.id, allowedAttributes: ["email_usuario"], anonymizedAttributes: ["email_usuario"] },
    ]);
    expect(await toolSharingAction(f.school1.id, idle, form({ toolId: tool.id, mode: "herdar" }))).toMatchObject({ status: "success" });
    expect(await t.db.prisma.toolSharing.count({ where: { toolId: tool.id } })).toBe(0);
  });

  it("per-role tool rules: a role's own rule is saved; a bad or missing role field is named and nothing changes", async () => {
    const rules = { nome_usuario: "permitido", idade: "nao_compartilhado", cpf: "nao_compartilhado", email_usuario: "nao_compartilhado", telefone: "nao_compartilhado" };
    const teachers = Object.fromEntries(Object.entries({ ...rules, email_usuario: "permitido" }).map(([a, r]) => [`professor_${a}`, r]));
    const tool = await createTestTool();
    await t.db.prisma.edtechLink.create({ data: { institutionId: f.networkId, edtechId: tool.edtechId } });
    expect(await toolSharingAction(f.school1.id, idle, form({ toolId: tool.id, mode: "propria", ...rules, perfil_professor: "propria", ...teachers, professor_cpf: "sim" }))).toMatchObject({
      status: "error",
      fieldErrors: { professor_cpf: "Escolha uma opção" },
    });
    expect(await toolSharingAction(f.school1.id, idle, form({ toolId: tool.id, mode: "propria", ...rules, perfil_professor: "propria" }))).toMatchObject({
      status: "error",
      fieldErrors: { professor_nome_usuario: "Escolha uma opção", professor_email_usuario: "Escolha uma opção" },
    });
    expect(await toolSharingAction(f.school1.id, idle, form({ toolId: tool.id, mode: "propria", ...rules, perfil_diretor: "propria", perfil_aluno: "talvez" }))).toMatchObject({
      status: "error",
      fieldErrors: { perfil_aluno: expect.any(String) },
    });
    expect(await t.db.prisma.toolSharing.count({ where: { toolId: tool.id } })).toBe(0);
    expect(await t.db.prisma.auditLog.count({ where: { targetId: tool.id } })).toBe(0);
    expect(await toolSharingAction(f.school1.id, idle, form({ toolId: tool.id, mode: "propria", ...rules, perfil_professor: "propria", ...teachers, perfil_aluno: "geral" }))).toMatchObject({ status: "success" });
    expect(await t.db.prisma.toolSharing.findMany({ where: { toolId: tool.id }, select: { allowedAttributes: true, roleOverrides: true } })).toEqual([
      { allowedAttributes: ["nome_usuario"], roleOverrides: { professor: { allowedAttributes: ["nome_usuario", "email_usuario"], anonymizedAttributes: [] } } },
    ]);
  });

  it("a placement form with a bad audience names the field", async () => {
    const state = await placementAction(f.school1.id, idle, form({ toolId: "", audience: "papeis" }));
    expect(state).toMatchObject({ status: "error", fieldErrors: { toolId: "Escolha uma ferramenta", roles: "Escolha ao menos um papel" } });
  });
});
