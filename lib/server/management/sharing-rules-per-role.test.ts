// Per-role sharing rules as the manager sets them in /gestao (docs/decisions/015): the services
// save a role's override, the previews show per role exactly what the channels deliver (the Data
// API page, the launch form), the history keeps the overrides before → after, and bad input is
// refused before anything changes.
import { beforeAll, describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { db } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import { toAppError } from "@/lib/server/http/error-response";
import { readDataPage } from "@/lib/server/data-api/read-data-page";
import { createPartner, linkEdtech, waitForVisibleEvents, type TPartner } from "@/test/fixtures/data-api";
import { buildLaunch } from "@/lib/server/launch/build-launch";
import { createSchool, createTestTool, placeTool, type TSchool } from "@/test/fixtures/launch";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { parseSharingRuleForm } from "@/lib/validations/management";
import { setupTestDatabase } from "@/test/database";
import { listApplicationAccess } from "./list-application-access";
import { listSharingRuleChanges } from "./list-sharing-rule-changes";
import { previewApplicationData } from "./preview-application-data";
import { previewToolLaunch } from "./preview-tool-launch";
import { resolveManagerScope, type TManagerScope } from "./resolve-manager-scope";
import { setApplicationAccess } from "./set-application-access";
import { setToolSharing } from "./set-tool-sharing";

setupTestDatabase();
let s: TSchool;
let scope: TManagerScope;
let app: TPartner;

const base = { nome_usuario: "permitido", idade: "nao_compartilhado", cpf: "nao_compartilhado", email_usuario: "nao_compartilhado", telefone: "nao_compartilhado" } as const;
const withEmail = { ...base, email_usuario: "permitido" } as const;

beforeAll(async () => {
  process.env.HUB_BASE_URL = "https://hub.example.org";
  process.env.HUB_SECRET = "management-per-role-secret-0123456789abcdef";
  resetEnvCache();
  s = await createSchool();
  const manager = await createPerson({ name: "Gestora Por Perfil" });
  const profile = await createProfile({ personId: manager.id, institutionId: s.schoolId, role: "gestor" });
  scope = await resolveManagerScope({ personId: manager.id, profileId: profile.id });
  app = await createPartner("PorPerfilGestao");
  await linkEdtech(s.networkId, app.edtechId);
});

async function dataPage() {
  await waitForVisibleEvents();
  return (await readDataPage({ apiKey: app.key, orgId: s.schoolId, searchParams: new URLSearchParams({ only: "usuario" }) })).parse();
}

describe("an application's rule with a teachers' override", () => {
  it("the Data API page and the preview agree per role: teachers' e-mails shared, students' not", async () => {
    await setApplicationAccess({ scope, settings: { institutionId: s.schoolId, applicationId: app.applicationId, rules: base, roles: { professor: withEmail } } });
    const page = await dataPage();
    const byName = (name: string) => page.dados.usuario!.filter((e) => e.registro.nome_usuario === name).at(-1)!;
    expect(byName(s.teacher.name).registro.email_usuario).toBe(s.teacher.email);
    expect(byName(s.student.name).registro).not.toHaveProperty("email_usuario");

    const preview = await previewApplicationData({ scope, institutionId: s.schoolId, applicationId: app.applicationId });
    if (preview.status !== "ok") throw new Error(preview.status);
    expect(preview.configuracao).toEqual(page.configuracao);
    expect(preview.configuracao.conjuntoDadosUsuario.porPerfil?.professor.atributosPermitidos).toEqual(["nome_usuario", "email_usuario"]);
    expect(preview.porPerfil.map((p) => p.role)).toEqual(["aluno", "professor", "responsavel", "gestor"]);
    for (const sample of preview.porPerfil) {
      // Exactly the event the Data API delivers, filtered with the sample's role.
      const delivered = page.dados.usuario!.find((e) => e.id === sample.evento!.id);
      expect(sample.evento).toEqual(delivered);
      expect(sample.evento!.registro.perfil).toBe(sample.role);
    }
    expect(preview.porPerfil.find((p) => p.role === "professor")!.evento!.registro).toHaveProperty("email_usuario", s.teacher.email);
    expect(preview.porPerfil.find((p) => p.role === "aluno")!.evento!.registro).not.toHaveProperty("email_usuario");
  });

  it("the card's state and the history carry the overrides, before → after; a role equal to the base is not stored", async () => {
    const rows = await listApplicationAccess({ scope, institutionId: s.schoolId });
    const [row] = rows.filter((a) => a.applicationId === app.applicationId);
    expect(row!.ownRoles).toEqual({ professor: withEmail });
    // Enabled exactly when a rule row applies (the edtech's contract is what lists the row at all).
    expect(row!.enabled).toBe(true);
    for (const other of rows) expect(other.enabled).toBe(other.own !== null || other.inherited !== null);

    // Students given exactly the base: nothing to store for them; teachers back to the base.
    await setApplicationAccess({ scope, settings: { institutionId: s.schoolId, applicationId: app.applicationId, rules: base, roles: { aluno: base, responsavel: { ...base, nome_usuario: "anonimizado" } } } });
    const stored = await db().applicationAccess.findFirstOrThrow({ where: { institutionId: s.schoolId, applicationId: app.applicationId } });
    expect(stored.roleOverrides).toEqual({ responsavel: { allowedAttributes: ["nome_usuario"], anonymizedAttributes: ["nome_usuario"] } });

    const history = await listSharingRuleChanges({ scope, institutionId: s.schoolId, partnerId: app.applicationId, page: 1 });
    expect(history.items.map((i) => i.change)).toEqual([
      {
        kind: "sharing",
        before: { allowed: ["nome_usuario"], anonymized: [], roles: { professor: { allowed: ["nome_usuario", "email_usuario"], anonymized: [] } } },
        after: { allowed: ["nome_usuario"], anonymized: [], roles: { responsavel: { allowed: ["nome_usuario"], anonymized: ["nome_usuario"] } } },
      },
      { kind: "sharing", before: null, after: { allowed: ["nome_usuario"], anonymized: [], roles: { professor: { allowed: ["nome_usuario", "email_usuario"], anonymized: [] } } } },
    ]);
  });

  it("bad input is refused (400, the fields named) and changes nothing", async () => {
    const where = { institutionId: s.schoolId, applicationId: app.applicationId };
    const before = await db().applicationAccess.findFirstOrThrow({ where });
    const audits = await db().auditLog.count({ where: { targetId: app.applicationId } });
    const attempts = [
      { roles: { diretor: withEmail } },
      { roles: { professor: { ...withEmail, cpf: "talvez" } } },
      { roles: { professor: { nome_usuario: "permitido" } } },
      { roles: "professor" },
    ];
    for (const extra of attempts) {
      // As a tampered request would send it: the types do not allow it.
      const settings = { institutionId: s.schoolId, applicationId: app.applicationId, rules: withEmail, ...extra } as never;
      const error = await setApplicationAccess({ scope, settings }).then(() => null, (e: unknown) => e);
      expect(error).toBeInstanceOf(ZodError);
      expect(toAppError(error).status).toBe(400);
    }
    expect(await db().applicationAccess.findFirstOrThrow({ where })).toEqual(before);
    expect(await db().auditLog.count({ where: { targetId: app.applicationId } })).toBe(audits);
  });
});

describe("the card's form", () => {
  const form = (extra: Record<string, string>) => ({ mode: "propria", ...base, ...extra });
  const fieldsOf = (values: Record<string, string>) => {
    try {
      parseSharingRuleForm(values);
      return null;
    } catch (error) {
      return (error as ZodError).issues.map((i) => i.path.join("."));
    }
  };

  it("reads the base, 'follow the base' roles and own-rule roles", () => {
    expect(parseSharingRuleForm(form({ perfil_aluno: "geral", perfil_professor: "propria", ...prefixed("professor", withEmail) }))).toEqual({
      remove: false,
      rules: base,
      roles: { professor: withEmail },
      oneRoster: false,
    });
    // Fields of a role that follows the base are ignored; inheriting ignores everything else.
    expect(parseSharingRuleForm(form({ perfil_professor: "geral", ...prefixed("professor", withEmail) }))).toMatchObject({ roles: {} });
    expect(parseSharingRuleForm({ mode: "herdar" })).toEqual({ remove: true });
  });

  it("names each bad or missing field", () => {
    expect(fieldsOf(form({ perfil_professor: "propria" }))).toEqual(["professor_nome_usuario", "professor_idade", "professor_cpf", "professor_email_usuario", "professor_telefone"]);
    expect(fieldsOf(form({ perfil_professor: "talvez" }))).toEqual(["perfil_professor"]);
    expect(fieldsOf(form({ perfil_aluno: "propria", ...prefixed("aluno", { ...base, cpf: "sim" }) }))).toEqual(["aluno_cpf"]);
    expect(fieldsOf({ ...base, mode: "" })).toEqual(["mode"]);
    expect(fieldsOf({ mode: "propria" })).toEqual(["nome_usuario", "idade", "cpf", "email_usuario", "telefone"]);
  });
});

function prefixed(role: string, rules: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(rules).map(([a, r]) => [`${role}_${a}`, r]));
}

describe("a tool's rule with a teachers' override", () => {
  it("the launch form per role equals the preview per role", async () => {
    const tool = await createTestTool();
    const placement = await placeTool({ toolId: tool.id, institutionId: s.schoolId });
    await setToolSharing({ scope, settings: { institutionId: s.schoolId, toolId: tool.id, rules: base, roles: { professor: withEmail } } });
    const lisPerson = async (profile: TSchool["teacher"]) =>
      (await buildLaunch({ placementId: placement.id, profile })).fields.filter(([name]) => name.startsWith("lis_person_"));
    const teacher = await lisPerson(s.teacher);
    expect(new Map(teacher).get("lis_person_contact_email_primary")).toBe(s.teacher.email);
    expect(new Map(await lisPerson(s.student)).has("lis_person_contact_email_primary")).toBe(false);

    const preview = await previewToolLaunch({ scope, institutionId: s.schoolId, toolId: tool.id });
    if (preview.status !== "ok") throw new Error(preview.status);
    const sample = (role: string) => preview.porPerfil.find((p) => p.person.role === role)!;
    expect(sample("professor").fields).toEqual(teacher);
    const latestStudent = await db().profile.findUniqueOrThrow({ where: { id: sample("aluno").person.profileId }, select: { id: true, role: true, institutionId: true } });
    expect(sample("aluno").fields).toEqual(await lisPerson({ ...latestStudent, name: "", email: "" }));
    expect(sample("aluno").fields.map(([n]) => n)).not.toContain("lis_person_contact_email_primary");
  });
});

describe("listApplicationAccess's enabled", () => {
  it("is the one access rule: a contract lists the application, a rule row enables it", async () => {
    const other = await createPartner("HabilitadaOuNao");
    await linkEdtech(s.networkId, other.edtechId);
    const rowOf = async () => (await listApplicationAccess({ scope, institutionId: s.schoolId })).find((a) => a.applicationId === other.applicationId);
    expect(await rowOf()).toMatchObject({ enabled: false, own: null, inherited: null });
    await setApplicationAccess({ scope, settings: { institutionId: s.schoolId, applicationId: other.applicationId, rules: base } });
    expect(await rowOf()).toMatchObject({ enabled: true });
  });
});
