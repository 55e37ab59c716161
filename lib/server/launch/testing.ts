// Test fixtures for the portal and the launch: a small school with people in every role, and
// tools with placements. School data goes through lib/server/school-data, as in the app.
import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import type { Placement, Role, Tool } from "@/lib/generated/prisma/client";
import { encryptSecret } from "@/lib/server/crypto/secret-box";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { assignTeacher } from "@/lib/server/school-data/assign-teacher";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { createSubject } from "@/lib/server/school-data/create-subject";
import { enrollStudent } from "@/lib/server/school-data/enroll-student";
import { LTI_SECRET_PURPOSE } from "@/lib/server/tools/lti-secret-purpose";
import type { TActingProfile } from "@/lib/server/tools/acting-profile";

export interface TSchool {
  networkId: string;
  schoolId: string;
  otherSchoolId: string;
  classId: string;
  otherClassId: string;
  /** Enrolled in classId. */
  student: TActingProfile & { name: string; email: string };
  /** Enrolled in otherClassId only. */
  otherStudent: TActingProfile;
  /** Teaches in classId. */
  teacher: TActingProfile & { name: string; email: string };
  guardian: TActingProfile;
  /** A teacher at the other school. */
  outsider: TActingProfile;
}

const acting = (p: { id: string; role: Role; institutionId: string }): TActingProfile => ({ id: p.id, role: p.role, institutionId: p.institutionId });

export async function createSchool(): Promise<TSchool> {
  const tag = randomBytes(3).toString("hex");
  const network = await createInstitution({ name: `Rede ${tag}`, kind: "network" });
  const school = await createInstitution({ name: `Escola ${tag}`, kind: "school", parentId: network.id });
  const other = await createInstitution({ name: `Outra ${tag}`, kind: "school", parentId: network.id });
  const period = await createPeriod({ institutionId: school.id, code: "2026", name: "Ano letivo 2026", startsOn: "2026-02-02", endsOn: "2026-12-11" });
  const subject = await createSubject({ institutionId: school.id, name: "Matemática" });
  const cls = await createClass({ periodId: period.id, name: "7º ano A" });
  const otherCls = await createClass({ periodId: period.id, name: "7º ano B" });
  const person = (name: string) => createPerson({ name, email: `${name.toLowerCase().replace(/\W+/g, ".")}.${tag}@escola.test` });

  const studentPerson = await person("Júlia Prado");
  const student = await createProfile({ personId: studentPerson.id, institutionId: school.id, role: "aluno" });
  await enrollStudent({ classId: cls.id, studentId: student.id });
  const otherStudent = await createProfile({ personId: (await person("Caio Reis")).id, institutionId: school.id, role: "aluno" });
  await enrollStudent({ classId: otherCls.id, studentId: otherStudent.id });
  const teacherPerson = await person("Marta Nunes");
  const teacher = await createProfile({ personId: teacherPerson.id, institutionId: school.id, role: "professor" });
  await assignTeacher({ classId: cls.id, subjectId: subject.id, teacherId: teacher.id });
  const guardian = await createProfile({ personId: (await person("Rui Prado")).id, institutionId: school.id, role: "responsavel" });
  const outsider = await createProfile({ personId: (await person("Lia Costa")).id, institutionId: other.id, role: "professor" });

  return {
    networkId: network.id,
    schoolId: school.id,
    otherSchoolId: other.id,
    classId: cls.id,
    otherClassId: otherCls.id,
    student: { ...acting(student), name: studentPerson.name, email: studentPerson.email ?? "" },
    otherStudent: acting(otherStudent),
    teacher: { ...acting(teacher), name: teacherPerson.name, email: teacherPerson.email ?? "" },
    guardian: acting(guardian),
    outsider: acting(outsider),
  };
}

export interface CreateTestToolOptions {
  title?: string;
  shortDescription?: string;
  launchUrl?: string;
  consumerKey?: string;
  secret?: string;
  status?: "active" | "withdrawn";
}

export async function createTestTool(options: CreateTestToolOptions = {}): Promise<Tool & { secret: string }> {
  const tag = randomBytes(4).toString("hex");
  const secret = options.secret ?? `secret-${tag}`;
  const edtech = await db().edtech.create({ data: { name: `Edtech ${tag}`, slug: `edtech-${tag}` } });
  const tool = await db().tool.create({
    data: {
      edtechId: edtech.id,
      title: options.title ?? `Ferramenta ${tag}`,
      shortDescription: options.shortDescription ?? "Descrição curta.",
      longDescription: "Descrição longa.",
      siteUrl: "https://tool.example",
      launchUrl: options.launchUrl ?? "https://tool.example/launch",
      consumerKey: options.consumerKey ?? `key-${tag}`,
      sharedSecretEnc: encryptSecret(secret, LTI_SECRET_PURPOSE),
      status: options.status ?? "active",
    },
  });
  return { ...tool, secret };
}

export interface PlaceToolOptions {
  toolId: string;
  institutionId: string;
  roles?: Role[];
  classId?: string;
  title?: string;
  customParams?: Record<string, unknown>;
}

/** Places the tool as a manager would: its edtech gets a contract at the institution first. */
export async function placeTool({ toolId, institutionId, roles = [], classId, title, customParams = {} }: PlaceToolOptions): Promise<Placement> {
  const { edtechId } = await db().tool.findUniqueOrThrow({ where: { id: toolId }, select: { edtechId: true } });
  await db().edtechLink.createMany({ data: [{ institutionId, edtechId }], skipDuplicates: true });
  return db().placement.create({ data: { toolId, institutionId, roles, classId, title, customParams: customParams as object } });
}

export async function shareWithTool(institutionId: string, toolId: string, allowed: string[], anonymized: string[] = []): Promise<void> {
  await db().toolSharing.upsert({
    where: { institutionId_toolId: { institutionId, toolId } },
    create: { institutionId, toolId, allowedAttributes: allowed, anonymizedAttributes: anonymized },
    update: { allowedAttributes: allowed, anonymizedAttributes: anonymized },
  });
}
