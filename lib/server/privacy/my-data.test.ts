// "Meus dados" (issue #14, point 6): the partners a person's profile shares with (from the one rule
// engine), the reads of her data in the institutions' access log, the guardian's view of her
// child, and the export, which holds her data and nobody else's.
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { syntheticCpf } from "@/prisma/seed/names";
import { flushAccessLogs, logAccess } from "@/lib/server/audit/log-access";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { enrollStudent } from "@/lib/server/school-data/enroll-student";
import { linkGuardian } from "@/lib/server/school-data/link-guardian";
import { setupTestDatabase } from "@/test/database";
import { exportMyData } from "./export-my-data";
import { getMyData } from "./get-my-data";
import { listPartnersForProfile } from "./list-partners-for-profile";
import { listReadsAboutProfiles } from "./list-reads-about-profiles";

setupTestDatabase();

const tag = randomBytes(4).toString("hex");
const CHILD = { name: `Lucas Filho ${tag}`, email: `lucas.${tag}@teste.br`, cpf: syntheticCpf(4242), phone: "11977776666", birthDate: "2014-03-02" };
const GUARDIAN = { name: `Marta Mãe ${tag}`, email: `marta.${tag}@teste.br`, cpf: syntheticCpf(4343), phone: "11955554444", birthDate: "1985-07-09" };

interface World {
  network: string;
  school: string;
  otherSchool: string;
  guardianPersonId: string;
  guardianProfile: { id: string; institutionId: string; role: "responsavel"; createdAt: Date };
  childProfile: { id: string; institutionId: string; role: "aluno"; createdAt: Date };
  app: string;
  appOff: string;
  tool: string;
  toolUnplaced: string;
  appElsewhere: string;
}

let w: World;

beforeAll(async () => {
  const network = await createInstitution({ name: `Rede ${tag}`, kind: "network" });
  const school = await createInstitution({ name: `Escola ${tag}`, kind: "school", parentId: network.id });
  const otherSchool = await createInstitution({ name: `Outra ${tag}`, kind: "school", parentId: network.id });
  const edtech = await db().edtech.create({ data: { name: `Edtech ${tag}`, slug: `edtech-${tag}` } });
  const stranger = await db().edtech.create({ data: { name: `Sem contrato ${tag}`, slug: `sem-${tag}` } });
  const application = (edtechId: string, name: string) =>
    db().oAuthApplication.create({ data: { edtechId, name, clientId: `${name}-${tag}`, clientSecretHash: "x", redirectUris: ["https://app.example/cb"] } });
  const tool = (name: string) =>
    db().tool.create({
      data: { edtechId: edtech.id, title: name, shortDescription: "", longDescription: "", siteUrl: "https://t.example", launchUrl: "https://t.example/l", consumerKey: `${name}-${tag}`, sharedSecretEnc: "x" },
    });
  const app = await application(edtech.id, "Leitor");
  const appOff = await application(edtech.id, "Desligado");
  const appElsewhere = await application(stranger.id, "Estranho");
  const placed = await tool("Lousa");
  const unplaced = await tool("Guardada");
  await db().edtechLink.create({ data: { institutionId: network.id, edtechId: edtech.id } });
  // The stranger's application has a rule but no contract: it gets nothing.
  await db().applicationAccess.create({ data: { institutionId: school.id, applicationId: appElsewhere.id, allowedAttributes: ["nome_usuario"], anonymizedAttributes: [] } });
  await db().applicationAccess.create({
    data: { institutionId: network.id, applicationId: app.id, allowedAttributes: ["nome_usuario", "cpf", "email_usuario"], anonymizedAttributes: ["email_usuario"] },
  });
  // The tool may receive CPF by rule, but a launch never carries it.
  await db().toolSharing.create({ data: { institutionId: school.id, toolId: placed.id, allowedAttributes: ["nome_usuario", "cpf"], anonymizedAttributes: ["nome_usuario"] } });
  await db().placement.create({ data: { toolId: placed.id, institutionId: school.id, roles: [] } });

  const guardianPerson = await createPerson({ ...GUARDIAN, password: "senha-da-marta" });
  const childPerson = await createPerson(CHILD);
  const guardianProfile = await createProfile({ personId: guardianPerson.id, institutionId: school.id, role: "responsavel" });
  const childProfile = await createProfile({ personId: childPerson.id, institutionId: school.id, role: "aluno" });
  await linkGuardian({ guardianId: guardianProfile.id, studentId: childProfile.id, kinship: "mãe" });
  const period = await createPeriod({ institutionId: school.id, code: "2026", name: "2026", startsOn: "2026-02-01", endsOn: "2026-12-10" });
  await enrollStudent({ classId: (await createClass({ periodId: period.id, name: `7º A ${tag}` })).id, studentId: childProfile.id });

  w = {
    network: network.id,
    school: school.id,
    otherSchool: otherSchool.id,
    guardianPersonId: guardianPerson.id,
    guardianProfile: { id: guardianProfile.id, institutionId: school.id, role: "responsavel", createdAt: guardianProfile.createdAt },
    childProfile: { id: childProfile.id, institutionId: school.id, role: "aluno", createdAt: childProfile.createdAt },
    app: app.id,
    appOff: appOff.id,
    tool: placed.id,
    toolUnplaced: unplaced.id,
    appElsewhere: appElsewhere.id,
  };
});

describe("listPartnersForProfile", () => {
  it("lists the enabled applications with the rule's attributes, and the tools the profile can open with what a launch carries", async () => {
    const partners = await listPartnersForProfile({ profile: w.childProfile });
    expect(partners).toEqual([
      {
        kind: "application",
        id: w.app,
        name: "Leitor",
        edtechName: `Edtech ${tag}`,
        attributes: [
          { attribute: "nome_usuario", treatment: "permitido" },
          { attribute: "cpf", treatment: "permitido" },
          { attribute: "email_usuario", treatment: "anonimizado" },
        ],
      },
      { kind: "tool", id: w.tool, name: "Lousa", edtechName: `Edtech ${tag}`, attributes: [{ attribute: "nome_usuario", treatment: "anonimizado" }] },
    ]);
  });

  it("lists nothing where the edtech has no contract", async () => {
    const person = await createPerson({ name: `Sozinho ${tag}` });
    const profile = await createProfile({ personId: person.id, institutionId: w.otherSchool, role: "professor" });
    await db().edtechLink.deleteMany({ where: { institutionId: w.network } });
    try {
      expect(await listPartnersForProfile({ profile: { id: profile.id, institutionId: w.otherSchool, role: "professor" } })).toEqual([]);
    } finally {
      const edtech = await db().oAuthApplication.findUniqueOrThrow({ where: { id: w.app }, select: { edtechId: true } });
      await db().edtechLink.create({ data: { institutionId: w.network, edtechId: edtech.edtechId } });
    }
  });
});

describe("listReadsAboutProfiles", () => {
  it("finds the rows naming the profile and the successful personal reads of its school or an ancestor since it exists, newest first", async () => {
    const profiles = [w.childProfile];
    logAccess({ channel: "lti_launch", toolId: w.tool, profileId: w.childProfile.id, attributes: ["lis_person_name_full"], status: 200 });
    await flushAccessLogs();
    logAccess({ channel: "data_api", applicationId: w.app, institutionId: w.network, attributes: ["nome_usuario", "cpf"], status: 200, eventCount: 3 });
    await flushAccessLogs();
    // Not about her: another school, a refused read, a read without personal attributes, another person.
    logAccess({ channel: "data_api", applicationId: w.app, institutionId: w.otherSchool, attributes: ["nome_usuario"], status: 200 });
    logAccess({ channel: "data_api", applicationId: w.app, institutionId: w.school, attributes: ["nome_usuario"], status: 403 });
    logAccess({ channel: "summary", applicationId: w.app, institutionId: w.school, attributes: [], status: 200 });
    logAccess({ channel: "user_info", applicationId: w.app, profileId: w.guardianProfile.id, attributes: ["nome_usuario"], status: 200 });
    await flushAccessLogs();
    // A school read from before she was at the school did not carry her data.
    await db().dataAccessLog.create({
      data: { channel: "data_api", applicationId: w.app, institutionId: w.school, attributes: ["nome_usuario"], status: 200, createdAt: new Date(w.childProfile.createdAt.getTime() - 60_000) },
    });

    const reads = await listReadsAboutProfiles({ profiles });
    expect(reads.map((r) => [r.channel, r.partner.name, r.institutionName, r.attributes])).toEqual([
      ["data_api", "Leitor", `Rede ${tag}`, ["nome_usuario", "cpf"]],
      ["lti_launch", "Lousa", `Escola ${tag}`, ["lis_person_name_full"]],
    ]);
    expect(reads[0]!.at.getTime()).toBeGreaterThanOrEqual(reads[1]!.at.getTime());
    expect(await listReadsAboutProfiles({ profiles, limit: 1 })).toHaveLength(1);
  });

  it("keeps the reads of a deleted application, under the name it had", async () => {
    const edtechId = (await db().oAuthApplication.findUniqueOrThrow({ where: { id: w.app } })).edtechId;
    const gone = await db().oAuthApplication.create({ data: { edtechId, name: "Efêmero", clientId: `efemero-${tag}`, clientSecretHash: "x", redirectUris: [] } });
    logAccess({ channel: "id_token", applicationId: gone.id, profileId: w.childProfile.id, attributes: ["sub"], status: 200 });
    await flushAccessLogs();
    await db().oAuthApplication.delete({ where: { id: gone.id } });
    const reads = await listReadsAboutProfiles({ profiles: [w.childProfile] });
    expect(reads[0]).toMatchObject({ channel: "id_token", partner: { kind: "application", name: "Efêmero", deleted: true } });
  });
});

describe("getMyData", () => {
  it("shows the guardian herself, then her child, each with partners per profile and reads", async () => {
    const subjects = await getMyData({ personId: w.guardianPersonId });
    expect(subjects.map((s) => [s.relation, s.name, s.kinship])).toEqual([
      ["self", GUARDIAN.name, null],
      ["child", CHILD.name, "mãe"],
    ]);
    const [self, child] = subjects;
    expect(self!.profiles.map((p) => [p.role, p.institution.name, p.partners.map((x) => x.name)])).toEqual([["responsavel", `Escola ${tag}`, ["Leitor", "Lousa"]]]);
    expect(self!.reads.map((r) => r.channel)).toContain("user_info");
    expect(child!.reads.map((r) => r.channel)).toContain("lti_launch");
    expect(child!.reads.map((r) => r.channel)).not.toContain("user_info");
  });

  it("is empty for an unknown person", async () => {
    expect(await getMyData({ personId: "00000000-0000-4000-8000-000000000000" })).toEqual([]);
  });
});

describe("exportMyData", () => {
  it("holds the person's data, her rules and reads, and none of her child's values or her password hash", async () => {
    const data = await exportMyData({ personId: w.guardianPersonId });
    expect(data).not.toBeNull();
    expect(data!.pessoa).toMatchObject({ nome_usuario: GUARDIAN.name, email_usuario: GUARDIAN.email, cpf: GUARDIAN.cpf, telefone: GUARDIAN.phone, idade: GUARDIAN.birthDate });
    expect(data!.perfis).toEqual([expect.objectContaining({ papel: "responsavel", instituicao: expect.objectContaining({ nome: `Escola ${tag}` }) })]);
    expect(data!.vinculosFamiliares).toEqual([expect.objectContaining({ relacao: "responsável por um(a) aluno(a)", parentesco: "mãe" })]);
    expect(data!.compartilhamento[0]!.parceiros.map((p) => p.nome)).toEqual(["Leitor", "Lousa"]);
    expect(data!.acessos.map((a) => a.canal)).toContain("user_info");
    expect(data!.historicoDeCadastro).toEqual([expect.objectContaining({ evento: "insert", perfil: "responsavel", atributosAlterados: [] })]);

    const text = JSON.stringify(data);
    for (const value of [CHILD.name, "Lucas", CHILD.email, CHILD.cpf, CHILD.phone, CHILD.birthDate, w.childProfile.id]) expect(text).not.toContain(value);
    const hash = (await db().person.findUniqueOrThrow({ where: { id: w.guardianPersonId } })).passwordHash!;
    expect(text).not.toContain(hash);
    expect(text).not.toMatch(/passwordHash|senha/i);
  });

  it("lists the child's own enrollment and guardian link, without the guardian", async () => {
    const child = await db().profile.findUniqueOrThrow({ where: { id: w.childProfile.id }, select: { personId: true } });
    const data = (await exportMyData({ personId: child.personId }))!;
    expect(data.matriculas).toEqual([expect.objectContaining({ turma: expect.objectContaining({ nome: `7º A ${tag}`, periodo: expect.objectContaining({ codigo: "2026" }) }) })]);
    expect(data.vinculosFamiliares).toEqual([expect.objectContaining({ relacao: "aluno(a) com responsável vinculado", parentesco: "mãe" })]);
    const text = JSON.stringify(data);
    for (const value of [GUARDIAN.name, GUARDIAN.email, GUARDIAN.cpf, w.guardianProfile.id]) expect(text).not.toContain(value);
  });
});
