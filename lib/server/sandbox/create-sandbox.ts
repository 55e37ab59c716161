// An edtech's sandbox network, on request: two generated schools with a period, subjects,
// classes, students, teachers and guardians, all plainly fake (names "Fictício", e-mails at
// sandbox.invalid, no CPF), written through the school-data services (so every row has its Data
// API event), linked to the edtech with every application enabled (Data API and OneRoster 1.2) and
// every active tool placed.
import { randomBytes } from "node:crypto";
import { AppError } from "@/lib/errors";
import { db } from "@/lib/server/db/database";
import { transaction } from "@/lib/server/db/transaction";
import { createApiKey } from "@/lib/server/api-keys/create-api-key";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { encryptSecret } from "@/lib/server/crypto/secret-box";
import { hashPassword } from "@/lib/server/crypto/password";
import { assertEdtechMember } from "@/lib/server/developer/assert-edtech-member";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { assignTeacher } from "@/lib/server/school-data/assign-teacher";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { createSubject } from "@/lib/server/school-data/create-subject";
import { importProfiles } from "@/lib/server/school-data/import-profiles";
import { importStudents } from "@/lib/server/school-data/import-students";
import { linkGuardian } from "@/lib/server/school-data/link-guardian";
import { PERSONAL_ATTRIBUTES } from "@/lib/validations/data-api";
import { SANDBOX_PASSWORD_PURPOSE, sandboxPerson } from "./sandbox-people";

const SCHOOLS = ["Escola Sandbox Norte", "Escola Sandbox Sul"];
const CLASSES = ["6º ano A", "7º ano A"];
const SUBJECTS = ["Matemática", "Língua Portuguesa"];
const STUDENTS_PER_CLASS = 10;

export interface TCreatedSandbox {
  institutionId: string;
  password: string;
  /** A new Data API key per application of the edtech, shown once. */
  keys: Array<{ applicationName: string; key: string }>;
}

export async function createSandbox(options: { actorPersonId: string; edtechId: string }): Promise<TCreatedSandbox> {
  await assertEdtechMember({ personId: options.actorPersonId, edtechId: options.edtechId });
  if (await db().sandbox.findUnique({ where: { edtechId: options.edtechId } })) throw new AppError("conflict", "Esta edtech já tem uma rede sandbox.");
  const edtech = await db().edtech.findUniqueOrThrow({ where: { id: options.edtechId }, include: { applications: true, tools: { where: { status: "active" } } } });
  const tag = randomBytes(3).toString("hex");
  const password = `sandbox-${randomBytes(6).toString("base64url")}`;
  const network = await createInstitution({ name: `Rede Sandbox · ${edtech.name}`, kind: "network" });
  // The row first: a second request while this one writes gets "already exists", not a second network.
  await db().sandbox.create({ data: { edtechId: edtech.id, institutionId: network.id, passwordSealed: encryptSecret(password, SANDBOX_PASSWORD_PURPOSE) } });

  let n = 0;
  const people: string[] = [];
  for (const name of SCHOOLS) {
    const school = await createInstitution({ name: `${name} · ${edtech.name}`, kind: "school", parentId: network.id });
    const period = await createPeriod({ institutionId: school.id, code: "2026", name: "Ano letivo 2026 (sandbox)", startsOn: "2026-02-02", endsOn: "2026-12-11" });
    const subjects = [];
    for (const subject of SUBJECTS) subjects.push(await createSubject({ institutionId: school.id, name: subject }));
    const teachers = await importProfiles({ institutionId: school.id, people: [0, 1].map(() => ({ person: sandboxPerson("professor", ++n, tag), role: "professor" as const })) });
    const guardians = await importProfiles({ institutionId: school.id, people: [0, 1, 2].map(() => ({ person: sandboxPerson("responsavel", ++n, tag), role: "responsavel" as const })) });
    people.push(...teachers.profileIds, ...guardians.profileIds);
    for (const [c, className] of CLASSES.entries()) {
      const cls = await createClass({ periodId: period.id, name: `${className} (sandbox)`, shift: "manha" });
      const students = await importStudents({
        institutionId: school.id,
        students: Array.from({ length: STUDENTS_PER_CLASS }, () => ({ person: sandboxPerson("aluno", ++n, tag), classId: cls.id })),
      });
      people.push(...students.profileIds);
      for (const subject of subjects) await assignTeacher({ classId: cls.id, subjectId: subject.id, teacherId: teachers.profileIds[c]! });
      for (const [g, guardian] of guardians.profileIds.entries()) if (g % CLASSES.length === c) await linkGuardian({ guardianId: guardian, studentId: students.profileIds[g]!, kinship: "mãe" });
    }
  }
  // Sign-in is not school data (no event), as a password change in updatePerson.
  const passwordHash = await hashPassword(password);
  await db().person.updateMany({ where: { profiles: { some: { id: { in: people } } } }, data: { passwordHash } });

  const keys: TCreatedSandbox["keys"] = [];
  await transaction(async (tx) => {
    await tx.edtechLink.create({ data: { institutionId: network.id, edtechId: edtech.id } });
    for (const application of edtech.applications) {
      // Everything shared, the age as a pseudonym: the sandbox shows both kinds of value.
      await tx.applicationAccess.create({ data: { institutionId: network.id, applicationId: application.id, allowedAttributes: [...PERSONAL_ATTRIBUTES], anonymizedAttributes: ["idade"], oneRoster: true } });
    }
    for (const tool of edtech.tools) await tx.placement.create({ data: { toolId: tool.id, institutionId: network.id, roles: ["aluno", "professor", "responsavel", "gestor"] } });
    await recordAudit(tx, {
      actorPersonId: options.actorPersonId,
      action: "sandbox.create",
      targetType: "institution",
      targetId: network.id,
      edtechId: edtech.id,
      institutionId: network.id,
      details: { applications: edtech.applications.length, tools: edtech.tools.length, people: people.length },
    });
  });
  for (const application of edtech.applications) keys.push({ applicationName: application.name, key: (await createApiKey({ applicationId: application.id, name: "Sandbox" })).key });
  return { institutionId: network.id, password, keys };
}
