// A manager reaches their institution and its descendants, and nothing else: every service of
// the manager area refuses (as "not found") what lies outside, and writes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { setupTestDatabase } from "@/test/database";
import { createPartner, linkEdtech } from "@/test/fixtures/data-api";
import { deletePlacement } from "./delete-placement";
import { editInstitutionTree } from "./edit-institution-tree";
import { getClassDetail } from "./get-class-detail";
import { getPersonDetail } from "./get-person-detail";
import { listApplicationAccess } from "./list-application-access";
import { listClasses } from "./list-classes";
import { listDataAccessLogs } from "./list-data-access-logs";
import { listEdtechLinks } from "./list-edtech-links";
import { listPeople } from "./list-people";
import { listPlacements } from "./list-placements";
import { resolveManagerScope } from "./resolve-manager-scope";
import { runSchoolDataCommand } from "./run-school-data-command";
import { runImport } from "./run-import";
import { savePlacement } from "./save-placement";
import { setApplicationAccess } from "./set-application-access";
import { setEdtechLink } from "./set-edtech-link";
import { createManagementFixture, type TManagementFixture } from "@/test/fixtures/management";
import type { TSchoolDataCommand } from "@/lib/validations/management";

const t = setupTestDatabase();
let f: TManagementFixture;
let partner: Awaited<ReturnType<typeof createPartner>>;
let toolId = "";
let school2PlacementId = "";

beforeAll(async () => {
  f = await createManagementFixture();
  partner = await createPartner("Parceira");
  await linkEdtech(f.networkId, partner.edtechId);
  toolId = (
    await t.db.prisma.tool.create({
      data: {
        edtechId: partner.edtechId, title: "Ferramenta", shortDescription: "x", longDescription: "x", siteUrl: "https://x.example",
        launchUrl: "https://x.example/launch", consumerKey: "ck", sharedSecretEnc: "x",
      },
    })
  ).id;
  school2PlacementId = (await t.db.prisma.placement.create({ data: { toolId, institutionId: f.school2.id, roles: [] } })).id;
});

const events = () => t.db.prisma.changeEvent.count();

describe("resolveManagerScope", () => {
  it("a network manager reaches the network and both schools; a school manager only the school", () => {
    expect(f.network.institutions.map((i) => i.id).sort()).toEqual([f.networkId, f.school1.id, f.school2.id].sort());
    expect(f.network.institutions[0]).toMatchObject({ id: f.networkId, depth: 0 });
    expect(f.manager1.institutions.map((i) => i.id)).toEqual([f.school1.id]);
  });

  it("refuses a profile that is not a gestor, or that belongs to someone else", async () => {
    const person = await createPerson({ name: "Professor Curioso" });
    const teacher = await createProfile({ personId: person.id, institutionId: f.school1.id, role: "professor" });
    await expect(resolveManagerScope({ personId: person.id, profileId: teacher.id })).rejects.toMatchObject({ code: "forbidden" });
    await expect(resolveManagerScope({ personId: person.id, profileId: f.manager1.profileId })).rejects.toMatchObject({ code: "forbidden" });
  });
});

describe("a school-1 manager cannot read school 2", () => {
  it("lists, details and settings of school 2 are not found", async () => {
    const scope = f.manager1;
    const institutionId = f.school2.id;
    await expect(listPeople({ scope, institutionId, page: 1 })).rejects.toMatchObject({ code: "not_found" });
    await expect(listClasses({ scope, institutionId, page: 1 })).rejects.toMatchObject({ code: "not_found" });
    await expect(getClassDetail({ scope, classId: f.school2.classId, page: 1 })).rejects.toMatchObject({ code: "not_found" });
    await expect(getPersonDetail({ scope, profileId: f.school2.studentId })).rejects.toMatchObject({ code: "not_found" });
    await expect(listEdtechLinks({ scope, institutionId })).rejects.toMatchObject({ code: "not_found" });
    await expect(listApplicationAccess({ scope, institutionId })).rejects.toMatchObject({ code: "not_found" });
    await expect(listPlacements({ scope, institutionId })).rejects.toMatchObject({ code: "not_found" });
    await expect(listDataAccessLogs({ scope, institutionId, page: 1 })).rejects.toMatchObject({ code: "not_found" });
    // Nor the parent network, nor a malformed id.
    await expect(listPeople({ scope, institutionId: f.networkId, page: 1 })).rejects.toMatchObject({ code: "not_found" });
    await expect(listPeople({ scope, institutionId: "not-a-uuid", page: 1 })).rejects.toMatchObject({ code: "not_found" });
  });

  it("while the network manager reads both schools", async () => {
    expect((await listPeople({ scope: f.network, institutionId: f.school2.id, page: 1 })).total).toBe(3);
    expect((await getClassDetail({ scope: f.network, classId: f.school2.classId, page: 1 })).students.total).toBe(1);
  });
});

describe("a school-1 manager cannot change school 2", () => {
  const s2 = () => f.school2;
  const commands: [string, () => TSchoolDataCommand][] = [
    ["createPeriod", () => ({ type: "createPeriod", input: { institutionId: s2().id, code: "2027", name: "2027", startsOn: "2027-02-01", endsOn: "2027-12-01" } })],
    ["updatePeriod", () => ({ type: "updatePeriod", periodId: s2().periodId, changes: { name: "Invadido" } })],
    ["deletePeriod", () => ({ type: "deletePeriod", periodId: s2().periodId })],
    ["createSubject", () => ({ type: "createSubject", input: { institutionId: s2().id, name: "Invasão" } })],
    ["updateSubject", () => ({ type: "updateSubject", subjectId: s2().subjectId, changes: { name: "Invadida" } })],
    ["deleteSubject", () => ({ type: "deleteSubject", subjectId: s2().subjectId })],
    ["createClass", () => ({ type: "createClass", input: { periodId: s2().periodId, name: "Turma intrusa" } })],
    ["updateClass", () => ({ type: "updateClass", classId: s2().classId, changes: { name: "Invadida" } })],
    ["deleteClass", () => ({ type: "deleteClass", classId: s2().classId })],
    ["createPerson", () => ({ type: "createPerson", institutionId: s2().id, role: "aluno", person: { name: "Intruso" } })],
    ["updatePerson", () => ({ type: "updatePerson", personId: s2().studentPersonId, changes: { phone: "11900000000" } })],
    ["addProfile", () => ({ type: "addProfile", personId: s2().studentPersonId, institutionId: f.school1.id, role: "aluno" })],
    ["deleteProfile", () => ({ type: "deleteProfile", profileId: s2().studentId })],
    ["enrollStudent", () => ({ type: "enrollStudent", classId: s2().classId, studentId: s2().studentId })],
    ["enrollStudent (own class, other's student)", () => ({ type: "enrollStudent", classId: f.school1.classId, studentId: s2().studentId })],
    ["unenrollStudent", () => ({ type: "unenrollStudent", enrollmentId: s2().enrollmentId })],
    ["assignTeacher", () => ({ type: "assignTeacher", classId: s2().classId, subjectId: s2().subjectId, teacherId: s2().teacherId })],
    ["linkGuardian", () => ({ type: "linkGuardian", guardianId: s2().teacherId, studentId: s2().studentId })],
  ];
  it.each(commands)("%s → not found, nothing written", async (_name, command) => {
    const before = await events();
    await expect(runSchoolDataCommand({ scope: f.manager1, command: command() })).rejects.toMatchObject({ code: "not_found" });
    expect(await events()).toBe(before);
  });

  it("a malformed id is a validation error, not a database error", async () => {
    await expect(runSchoolDataCommand({ scope: f.manager1, command: { type: "deleteClass", classId: "1; drop table" } })).rejects.toMatchObject({ name: "ZodError" });
  });

  it("links, access settings, placements, the tree and imports of school 2 are refused", async () => {
    const scope = f.manager1;
    await expect(setEdtechLink({ scope, institutionId: f.school2.id, edtechId: partner.edtechId, linked: true })).rejects.toMatchObject({ code: "not_found" });
    const rules = { nome_usuario: "permitido", idade: "permitido", cpf: "permitido", email_usuario: "permitido", telefone: "permitido" } as const;
    await expect(setApplicationAccess({ scope, settings: { institutionId: f.school2.id, applicationId: partner.applicationId, rules } })).rejects.toMatchObject({ code: "not_found" });
    await expect(setApplicationAccess({ scope, remove: { institutionId: f.school2.id, applicationId: partner.applicationId } })).rejects.toMatchObject({ code: "not_found" });
    await expect(savePlacement({ scope, input: { institutionId: f.school2.id, toolId, audience: "escola" } })).rejects.toMatchObject({ code: "not_found" });
    await expect(savePlacement({ scope, placementId: school2PlacementId, input: { institutionId: f.school1.id, toolId, audience: "escola" } })).rejects.toMatchObject({ code: "not_found" });
    await expect(deletePlacement({ scope, placementId: school2PlacementId })).rejects.toMatchObject({ code: "not_found" });
    // A class of school 2 in a school-1 placement.
    await expect(savePlacement({ scope, input: { institutionId: f.school1.id, toolId, audience: "turma", classId: f.school2.classId } })).rejects.toMatchObject({ code: "bad_request" });
    await expect(editInstitutionTree({ scope, command: { type: "rename", institutionId: f.school2.id, name: "Invadida" } })).rejects.toMatchObject({ code: "not_found" });
    await expect(editInstitutionTree({ scope, command: { type: "create", parentId: f.school2.id, name: "Anexo", kind: "school" } })).rejects.toMatchObject({ code: "not_found" });
    await expect(editInstitutionTree({ scope, command: { type: "move", institutionId: f.school1.id, parentId: f.school2.id } })).rejects.toMatchObject({ code: "forbidden" });
    await expect(runImport({ scope, institutionId: f.school2.id, kind: "disciplinas", csv: "nome\nHistória" })).rejects.toMatchObject({ code: "not_found" });
    expect(await t.db.prisma.placement.count({ where: { id: school2PlacementId } })).toBe(1);
    expect(await t.db.prisma.subject.count({ where: { institutionId: f.school2.id, name: "História" } })).toBe(0);
    expect((await t.db.prisma.institution.findUniqueOrThrow({ where: { id: f.school2.id } })).name).toBe("Escola Dois");
  });
});

describe("within reach", () => {
  it("a person with a profile outside the reach cannot be edited by the school manager", async () => {
    const person = await createPerson({ name: "Ana Dupla" });
    await createProfile({ personId: person.id, institutionId: f.school1.id, role: "professor" });
    await createProfile({ personId: person.id, institutionId: f.school2.id, role: "responsavel" });
    await expect(runSchoolDataCommand({ scope: f.manager1, command: { type: "updatePerson", personId: person.id, changes: { phone: "11977776666" } } })).rejects.toMatchObject({ code: "forbidden" });
    await runSchoolDataCommand({ scope: f.network, command: { type: "updatePerson", personId: person.id, changes: { phone: "11977776666" } } });
    expect((await t.db.prisma.person.findUniqueOrThrow({ where: { id: person.id } })).phone).toBe("11977776666");
  });

  it("the school manager runs the whole class life cycle in school 1, each step one event", async () => {
    const scope = f.manager1;
    const before = await events();
    const { id: classId } = await runSchoolDataCommand({ scope, command: { type: "createClass", input: { periodId: f.school1.periodId, name: "8º B", shift: "tarde" } } });
    const { id: enrollmentId } = await runSchoolDataCommand({ scope, command: { type: "enrollStudent", classId: classId!, studentId: f.school1.studentId } });
    await runSchoolDataCommand({ scope, command: { type: "unenrollStudent", enrollmentId: enrollmentId! } });
    await runSchoolDataCommand({ scope, command: { type: "deleteClass", classId: classId! } });
    const written = await t.db.prisma.changeEvent.findMany({ orderBy: { seq: "asc" }, skip: before });
    expect(written.map((e) => `${e.entity}.${e.kind}`)).toEqual(["turma.insert", "turmaAluno.insert", "turmaAluno.delete", "turma.delete"]);
  });

  it("removing a person's last profile removes the person; a manager cannot remove their own profile", async () => {
    const { id } = await runSchoolDataCommand({ scope: f.manager1, command: { type: "createPerson", institutionId: f.school1.id, role: "responsavel", person: { name: "Temporária", cpf: "390.533.447-05" } } });
    const { personId } = await t.db.prisma.profile.findUniqueOrThrow({ where: { id: id! } });
    await runSchoolDataCommand({ scope: f.manager1, command: { type: "deleteProfile", profileId: id! } });
    expect(await t.db.prisma.person.count({ where: { id: personId } })).toBe(0);
    await expect(runSchoolDataCommand({ scope: f.manager1, command: { type: "deleteProfile", profileId: f.manager1.profileId } })).rejects.toMatchObject({ code: "conflict" });
  });

  it("the network manager edits the tree: creates a school, renames it, refuses a cycle, moves it", async () => {
    const scope = f.network;
    const { id } = await editInstitutionTree({ scope, command: { type: "create", parentId: f.school1.id, name: "Anexo Um", kind: "school" } });
    // The scope is re-read on every request; the new school is in reach from the next one.
    const refreshed = await resolveManagerScope({ personId: scope.personId, profileId: scope.profileId });
    await editInstitutionTree({ scope: refreshed, command: { type: "rename", institutionId: id, name: "Anexo Leste" } });
    await expect(editInstitutionTree({ scope: refreshed, command: { type: "move", institutionId: f.school1.id, parentId: id } })).rejects.toMatchObject({ code: "bad_request" });
    await editInstitutionTree({ scope: refreshed, command: { type: "move", institutionId: id, parentId: f.school2.id } });
    expect(await t.db.prisma.institution.findUniqueOrThrow({ where: { id } })).toMatchObject({ name: "Anexo Leste", parentId: f.school2.id });
    await expect(editInstitutionTree({ scope: refreshed, command: { type: "move", institutionId: f.networkId, parentId: id } })).rejects.toMatchObject({ code: "forbidden" });
    expect(await t.db.prisma.auditLog.count({ where: { targetId: id, action: { startsWith: "institution." } } })).toBe(3);
  });

  it("edtech links are inherited by the schools, and only own links can be removed", async () => {
    const { links } = await listEdtechLinks({ scope: f.manager1, institutionId: f.school1.id });
    expect(links).toEqual([expect.objectContaining({ edtechId: partner.edtechId, inherited: true, linkedAt: { id: f.networkId, name: "Rede Teste" } })]);
    await expect(setEdtechLink({ scope: f.manager1, institutionId: f.school1.id, edtechId: partner.edtechId, linked: false })).rejects.toMatchObject({ code: "not_found" });
    const other = await createPartner("Outra");
    await setEdtechLink({ scope: f.manager1, institutionId: f.school1.id, edtechId: other.edtechId, linked: true });
    await expect(setEdtechLink({ scope: f.manager1, institutionId: f.school1.id, edtechId: other.edtechId, linked: true })).rejects.toMatchObject({ code: "conflict" });
    expect((await listEdtechLinks({ scope: f.network, institutionId: f.school2.id })).links.map((l) => l.edtechId)).toEqual([partner.edtechId]);
    await setEdtechLink({ scope: f.manager1, institutionId: f.school1.id, edtechId: other.edtechId, linked: false });
  });

  it("placements: whole school, some roles, or a class of the school", async () => {
    const scope = f.manager1;
    const a = await savePlacement({ scope, input: { institutionId: f.school1.id, toolId, audience: "escola", title: "Para todos" } });
    const b = await savePlacement({ scope, input: { institutionId: f.school1.id, toolId, audience: "papeis", roles: ["professor", "gestor"] } });
    const c = await savePlacement({ scope, input: { institutionId: f.school1.id, toolId, audience: "turma", classId: f.school1.classId, customParams: "nivel=basico\nmodo = aula" } });
    await expect(savePlacement({ scope, input: { institutionId: f.school1.id, toolId, audience: "papeis", roles: [] } })).rejects.toMatchObject({ name: "ZodError" });
    const { placements } = await listPlacements({ scope, institutionId: f.school1.id });
    expect(placements.map((p) => [p.id, p.roles, p.classId, p.customParams])).toEqual([
      [a.id, [], null, {}],
      [b.id, ["professor", "gestor"], null, {}],
      [c.id, [], f.school1.classId, { nivel: "basico", modo: "aula" }],
    ]);
    // An update keeps the id: it is the resource_link_id the tool already knows.
    expect((await savePlacement({ scope, placementId: a.id, input: { institutionId: f.school1.id, toolId, audience: "papeis", roles: ["aluno"] } })).id).toBe(a.id);
    await deletePlacement({ scope, placementId: b.id });
    expect((await listPlacements({ scope, institutionId: f.school1.id })).placements.map((p) => p.id)).toEqual([a.id, c.id]);
  });
});
