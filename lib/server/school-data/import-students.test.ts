import { beforeAll, describe, expect, it } from "vitest";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { setupTestDatabase } from "@/test/database";
import { createClass } from "./create-class";
import { createPeriod } from "./create-period";
import { createPerson } from "./create-person";
import { createProfile } from "./create-profile";
import { enrollStudent } from "./enroll-student";
import { importStudents } from "./import-students";

const t = setupTestDatabase();
let schoolId = "";
let classId = "";

beforeAll(async () => {
  schoolId = (await createInstitution({ name: "Escola Lote", kind: "school" })).id;
  const period = await createPeriod({ institutionId: schoolId, code: "2026", name: "2026", startsOn: "2026-02-01", endsOn: "2026-12-01" });
  classId = (await createClass({ periodId: period.id, name: "5º A" })).id;
});

const strip = (r: unknown) => {
  const { id: _id, pessoaId: _p, alunoId: _a, ...rest } = r as Record<string, unknown>;
  return rest;
};

describe("importStudents", () => {
  it("emits the same events, with the same record shapes, as the one-by-one services", async () => {
    const single = await createProfile({ personId: (await createPerson({ name: "Aluno Um", cpf: "52998224725", birthDate: "2015-01-02" })).id, institutionId: schoolId, role: "aluno" });
    await enrollStudent({ classId, studentId: single.id });
    const oneByOne = await t.db.prisma.changeEvent.findMany({ where: { profileIds: { has: single.id } }, orderBy: { seq: "asc" } });

    const { profileIds } = await importStudents({ institutionId: schoolId, students: [{ person: { name: "Aluno Um", cpf: "168.995.350-09", birthDate: "2015-01-02" }, classId }] });
    const batched = await t.db.prisma.changeEvent.findMany({ where: { profileIds: { has: profileIds[0]! } }, orderBy: { seq: "asc" } });

    expect(batched.map((e) => [e.entity, e.kind, e.periodCode])).toEqual(oneByOne.map((e) => [e.entity, e.kind, e.periodCode]));
    expect(batched.map((e) => Object.keys(e.record as object).sort())).toEqual(oneByOne.map((e) => Object.keys(e.record as object).sort()));
    expect(strip(batched[1]!.record)).toEqual(strip(oneByOne[1]!.record));
  });

  it("is all or nothing: one duplicate CPF leaves no person, profile, enrollment or event", async () => {
    const before = { people: await t.db.prisma.person.count(), events: await t.db.prisma.changeEvent.count() };
    await expect(
      importStudents({
        institutionId: schoolId,
        students: [
          { person: { name: "Novo Aluno" }, classId },
          { person: { name: "CPF Repetido", cpf: "529.982.247-25" }, classId },
        ],
      }),
    ).rejects.toMatchObject({ code: "conflict" });
    expect(await t.db.prisma.person.count()).toBe(before.people);
    expect(await t.db.prisma.changeEvent.count()).toBe(before.events);
  });

  it("refuses a class of another institution", async () => {
    const other = await createInstitution({ name: "Outra", kind: "school" });
    await expect(importStudents({ institutionId: other.id, students: [{ person: { name: "Fulano" }, classId }] })).rejects.toMatchObject({ code: "bad_request" });
  });
});
