// Test fixtures for the manager area: a network with two schools, a manager for each level and
// some school data, all written through the school-data services.
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { createSubject } from "@/lib/server/school-data/create-subject";
import { enrollStudent } from "@/lib/server/school-data/enroll-student";
import { resolveManagerScope, type TManagerScope } from "./resolve-manager-scope";

export interface TSchoolFixture {
  id: string;
  periodId: string;
  classId: string;
  subjectId: string;
  studentId: string;
  studentPersonId: string;
  teacherId: string;
  enrollmentId: string;
}

export interface TManagementFixture {
  networkId: string;
  school1: TSchoolFixture;
  school2: TSchoolFixture;
  network: TManagerScope;
  manager1: TManagerScope;
  manager2: TManagerScope;
}

let counter = 0;

async function school(name: string, parentId: string): Promise<TSchoolFixture> {
  const id = (await createInstitution({ name, kind: "school", parentId })).id;
  const period = await createPeriod({ institutionId: id, code: "2026", name: "2026", startsOn: "2026-02-01", endsOn: "2026-12-10" });
  const cls = await createClass({ periodId: period.id, name: "7º A" });
  const subject = await createSubject({ institutionId: id, name: "Matemática" });
  const n = ++counter;
  const studentPerson = await createPerson({ name: `Aluno ${name}`, email: `aluno${n}.${Date.now()}@teste.br`, phone: "11988887777", birthDate: "2014-05-06" });
  const student = await createProfile({ personId: studentPerson.id, institutionId: id, role: "aluno" });
  const teacher = await createProfile({ personId: (await createPerson({ name: `Professora ${name}` })).id, institutionId: id, role: "professor" });
  const enrollment = await enrollStudent({ classId: cls.id, studentId: student.id });
  return { id, periodId: period.id, classId: cls.id, subjectId: subject.id, studentId: student.id, studentPersonId: studentPerson.id, teacherId: teacher.id, enrollmentId: enrollment.id };
}

async function manager(name: string, institutionId: string): Promise<TManagerScope> {
  const person = await createPerson({ name });
  const profile = await createProfile({ personId: person.id, institutionId, role: "gestor" });
  return resolveManagerScope({ personId: person.id, profileId: profile.id });
}

export async function createManagementFixture(): Promise<TManagementFixture> {
  const networkId = (await createInstitution({ name: "Rede Teste", kind: "network" })).id;
  const school1 = await school("Escola Um", networkId);
  const school2 = await school("Escola Dois", networkId);
  return {
    networkId,
    school1,
    school2,
    network: await manager("Gestora da Rede", networkId),
    manager1: await manager("Gestor Um", school1.id),
    manager2: await manager("Gestor Dois", school2.id),
  };
}
