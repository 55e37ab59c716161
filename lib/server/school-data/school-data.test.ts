import { beforeAll, describe, expect, it } from "vitest";
import { AppError } from "@/lib/errors";
import type { ChangeEvent } from "@/lib/generated/prisma/client";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { setupTestDatabase } from "@/test/database";
import { assignTeacher } from "./assign-teacher";
import { createClass } from "./create-class";
import { createPeriod } from "./create-period";
import { createPerson } from "./create-person";
import { createProfile } from "./create-profile";
import { createSubject } from "./create-subject";
import { deleteClass } from "./delete-class";
import { deletePeriod } from "./delete-period";
import { deleteProfile } from "./delete-profile";
import { enrollStudent } from "./enroll-student";
import { linkGuardian } from "./link-guardian";
import { unenrollStudent } from "./unenroll-student";
import { updatePerson } from "./update-person";

const t = setupTestDatabase();
let schoolId = "";
let otherSchoolId = "";

/** Runs `write` and returns the events it appended (by sequence, so only this write's). */
async function eventsOf<T>(write: () => Promise<T>): Promise<{ result: T; events: ChangeEvent[] }> {
  const last = await t.db.prisma.changeEvent.findFirst({ orderBy: { seq: "desc" } });
  const result = await write();
  const events = await t.db.prisma.changeEvent.findMany({ where: { seq: { gt: last?.seq ?? 0n } }, orderBy: { seq: "asc" } });
  return { result, events };
}

async function student(name: string, institutionId = schoolId) {
  const person = await createPerson({ name, email: `${name.toLowerCase().replace(/\W/g, "")}@t.br` });
  return createProfile({ personId: person.id, institutionId, role: "aluno" });
}

beforeAll(async () => {
  const network = await createInstitution({ name: "Rede Teste", kind: "network" });
  schoolId = (await createInstitution({ name: "Escola A", kind: "school", parentId: network.id })).id;
  otherSchoolId = (await createInstitution({ name: "Escola B", kind: "school", parentId: network.id })).id;
});

describe("each school-data write appends exactly one event with its entity, kind and snapshot", () => {
  it("createProfile → usuario insert with the non-personal fields only (the log keeps no personal value)", async () => {
    const person = await createPerson({ name: "Maria Lima", email: "Maria@T.br", cpf: "529.982.247-25", phone: "(11) 98888-7777", birthDate: "2012-03-04" });
    const { result: profile, events } = await eventsOf(() => createProfile({ personId: person.id, institutionId: schoolId, role: "aluno" }));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ entity: "usuario", kind: "insert", institutionId: schoolId, recordId: profile.id, profileIds: [profile.id] });
    expect(events[0]!.record).toEqual({ id: profile.id, pessoaId: person.id, instituicaoId: schoolId, perfil: "aluno" });
    expect(events[0]!.changed).toEqual([]);
  });

  it("updatePerson → one usuario update per profile naming what changed (no value), none when only the password changes", async () => {
    const person = await createPerson({ name: "João Alves" });
    const p1 = await createProfile({ personId: person.id, institutionId: schoolId, role: "aluno" });
    const p2 = await createProfile({ personId: person.id, institutionId: otherSchoolId, role: "aluno" });
    const { events } = await eventsOf(() => updatePerson({ personId: person.id, changes: { phone: "11 3333-4444" } }));
    expect(events.map((e) => [e.entity, e.kind, e.recordId, e.institutionId])).toEqual([
      ["usuario", "update", p1.id, schoolId],
      ["usuario", "update", p2.id, otherSchoolId],
    ]);
    expect(events[0]!.record).toEqual({ id: p1.id, pessoaId: person.id, instituicaoId: schoolId, perfil: "aluno" });
    expect(events.map((e) => e.changed)).toEqual([["telefone"], ["telefone"]]);
    const { events: none } = await eventsOf(() => updatePerson({ personId: person.id, changes: { password: "outra-senha-123" } }));
    expect(none).toHaveLength(0);
  });

  it("each event marks the earlier events of its record as superseded by its transaction", async () => {
    const person = await createPerson({ name: "Lia Prado" });
    const { result: profile, events: [insert] } = await eventsOf(() => createProfile({ personId: person.id, institutionId: schoolId, role: "aluno" }));
    const { events: [update] } = await eventsOf(() => updatePerson({ personId: person.id, changes: { name: "Lia Prado Reis", phone: "11 2222-3333" } }));
    expect(update!.changed).toEqual(["nome_usuario", "telefone"]);
    await deleteProfile({ profileId: profile.id });
    const rows = await t.db.prisma.changeEvent.findMany({ where: { recordId: profile.id }, orderBy: { seq: "asc" } });
    expect(rows.map((r) => r.kind)).toEqual(["insert", "update", "delete"]);
    expect(rows[0]!.id).toBe(insert!.id);
    expect(rows[0]!.supersededTxid).toBe(rows[1]!.txid);
    expect(rows[1]!.supersededTxid).toBe(rows[2]!.txid);
    expect(rows[2]!.supersededTxid).toBeNull();
  });

  it("period, subject, class, enrollment, teaching and guardianship inserts", async () => {
    const period = await eventsOf(() => createPeriod({ institutionId: schoolId, code: "2030", name: "Ano letivo 2030", startsOn: "2030-02-01", endsOn: "2030-12-15" }));
    expect(period.events.map((e) => [e.entity, e.kind, e.periodCode])).toEqual([["periodo", "insert", "2030"]]);
    const subject = await eventsOf(() => createSubject({ institutionId: schoolId, name: "Física" }));
    expect(subject.events.map((e) => [e.entity, e.kind])).toEqual([["disciplina", "insert"]]);
    const cls = await eventsOf(() => createClass({ periodId: period.result.id, name: "9º A", grade: "9º ano", shift: "manha" }));
    expect(cls.events.map((e) => [e.entity, e.kind, e.periodCode])).toEqual([["turma", "insert", "2030"]]);
    expect(cls.events[0]!.record).toMatchObject({ id: cls.result.id, periodoId: period.result.id, codigoPeriodo: "2030", nome: "9º A" });

    const aluno = await student("Pedro");
    const enroll = await eventsOf(() => enrollStudent({ classId: cls.result.id, studentId: aluno.id }));
    expect(enroll.events.map((e) => [e.entity, e.kind, e.periodCode, e.profileIds])).toEqual([["turmaAluno", "insert", "2030", [aluno.id]]]);
    expect(enroll.events[0]!.record).toEqual({ id: enroll.result.id, turmaId: cls.result.id, alunoId: aluno.id, codigoPeriodo: "2030" });

    const teacherPerson = await createPerson({ name: "Prof. Carla" });
    const teacher = await createProfile({ personId: teacherPerson.id, institutionId: schoolId, role: "professor" });
    const teach = await eventsOf(() => assignTeacher({ classId: cls.result.id, subjectId: subject.result.id, teacherId: teacher.id }));
    expect(teach.events.map((e) => [e.entity, e.kind, e.profileIds])).toEqual([["disciplinaProfessor", "insert", [teacher.id]]]);

    const guardianPerson = await createPerson({ name: "Rita Responsável" });
    const guardian = await createProfile({ personId: guardianPerson.id, institutionId: schoolId, role: "responsavel" });
    const link = await eventsOf(() => linkGuardian({ guardianId: guardian.id, studentId: aluno.id, kinship: "mãe" }));
    expect(link.events.map((e) => [e.entity, e.kind, e.profileIds])).toEqual([["responsavelAluno", "insert", [guardian.id, aluno.id]]]);

    const unenroll = await eventsOf(() => unenrollStudent({ enrollmentId: enroll.result.id }));
    expect(unenroll.events.map((e) => [e.entity, e.kind])).toEqual([["turmaAluno", "delete"]]);
    expect(unenroll.events[0]!.record).toEqual(enroll.events[0]!.record);
  });

  it("deleting a class emits the deletes of its links and then the class, each with its last state", async () => {
    const period = await createPeriod({ institutionId: schoolId, code: "2031", name: "2031", startsOn: "2031-02-01", endsOn: "2031-12-01" });
    const cls = await createClass({ periodId: period.id, name: "1º B" });
    const a = await student("Lia");
    const b = await student("Davi");
    await enrollStudent({ classId: cls.id, studentId: a.id });
    await enrollStudent({ classId: cls.id, studentId: b.id });
    const { events } = await eventsOf(() => deleteClass({ classId: cls.id }));
    expect(events.map((e) => [e.entity, e.kind])).toEqual([["turmaAluno", "delete"], ["turmaAluno", "delete"], ["turma", "delete"]]);
    expect(events[2]!.record).toMatchObject({ id: cls.id, nome: "1º B", codigoPeriodo: "2031" });
    expect(await t.db.prisma.class.count({ where: { id: cls.id } })).toBe(0);
  });

  it("deleting a profile removes its links first and ends with usuario delete", async () => {
    const a = await student("Caio");
    const period = await createPeriod({ institutionId: schoolId, code: "2032", name: "2032", startsOn: "2032-02-01", endsOn: "2032-12-01" });
    const cls = await createClass({ periodId: period.id, name: "2º C" });
    await enrollStudent({ classId: cls.id, studentId: a.id });
    const { events } = await eventsOf(() => deleteProfile({ profileId: a.id }));
    expect(events.map((e) => [e.entity, e.kind, e.recordId === a.id])).toEqual([["turmaAluno", "delete", false], ["usuario", "delete", true]]);
  });
});

describe("a failed write leaves neither the row nor the event", () => {
  it("duplicate enrollment: 409 and nothing written", async () => {
    const period = await createPeriod({ institutionId: schoolId, code: "2033", name: "2033", startsOn: "2033-02-01", endsOn: "2033-12-01" });
    const cls = await createClass({ periodId: period.id, name: "3º A" });
    const a = await student("Bia");
    await enrollStudent({ classId: cls.id, studentId: a.id });
    const rows = await t.db.prisma.classStudent.count();
    const { events } = await eventsOf(() => expect(enrollStudent({ classId: cls.id, studentId: a.id })).rejects.toMatchObject({ code: "conflict" }));
    expect(events).toHaveLength(0);
    expect(await t.db.prisma.classStudent.count()).toBe(rows);
  });

  it("a failure after the row was written inside the transaction rolls both back", async () => {
    const before = { classes: await t.db.prisma.class.count(), events: await t.db.prisma.changeEvent.count() };
    const period = await t.db.prisma.period.findFirstOrThrow({ where: { code: "2033" } });
    await expect(
      t.db.prisma.$transaction(async (tx) => {
        await createClass({ periodId: period.id, name: "Turma fantasma" }, { tx });
        throw new AppError("conflict", "simulated failure after the write");
      }),
    ).rejects.toThrow("simulated failure");
    expect(await t.db.prisma.class.count()).toBe(before.classes);
    expect(await t.db.prisma.changeEvent.count()).toBe(before.events);
  });

  it("a student of another school cannot be enrolled, and a period in use cannot be deleted", async () => {
    const period = await createPeriod({ institutionId: schoolId, code: "2034", name: "2034", startsOn: "2034-02-01", endsOn: "2034-12-01" });
    const cls = await createClass({ periodId: period.id, name: "4º A" });
    const outsider = await student("Zeca", otherSchoolId);
    const count = await t.db.prisma.changeEvent.count();
    await expect(enrollStudent({ classId: cls.id, studentId: outsider.id })).rejects.toMatchObject({ code: "bad_request" });
    await expect(deletePeriod({ periodId: period.id })).rejects.toMatchObject({ code: "conflict" });
    expect(await t.db.prisma.changeEvent.count()).toBe(count);
  });

  it("invalid input is a validation error before any write", async () => {
    const count = await t.db.prisma.changeEvent.count();
    await expect(createPeriod({ institutionId: schoolId, code: "20x5", name: "", startsOn: "2025-13-01", endsOn: "2025-01-01" })).rejects.toThrow();
    await expect(createPerson({ name: "Ana", cpf: "111.111.111-11" })).rejects.toThrow("CPF inválido");
    expect(await t.db.prisma.changeEvent.count()).toBe(count);
  });
});
