// The record each Data API event carries, per entity. Keys are the Data API's (Portuguese) field
// names; personal attributes use the attribute names of `configuracao` so the privacy filter can
// act on them by name.
//
// No record stored in the event log holds a personal value: a `usuario` record keeps only its
// non-personal fields, and the Data API adds the person's CURRENT values when it reads
// (query-events.ts, PERSONAL_VALUES_SQL). Deleting the person therefore leaves nothing behind,
// and a superseded value (an old phone) is never served (docs/decisions/016).
import type { Class, ClassStudent, GuardianStudent, Period, Person, Profile, Subject, SubjectTeacher } from "@/lib/generated/prisma/client";

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

/** The personal attributes of `configuracao`, by their Data API names. */
export function personAttributes(person: Pick<Person, "name" | "birthDate" | "cpf" | "email" | "phone">) {
  return {
    nome_usuario: person.name,
    idade: day(person.birthDate),
    cpf: person.cpf,
    email_usuario: person.email,
    telefone: person.phone,
  };
}

/** The stored `usuario` record: non-personal fields only. */
export function usuarioRecord(profile: Profile) {
  return {
    id: profile.id,
    pessoaId: profile.personId,
    instituicaoId: profile.institutionId,
    perfil: profile.role,
  };
}

/** The personal attributes whose values differ between two versions of a person. */
export function changedAttributes(before: Person, after: Person): string[] {
  const a = personAttributes(before);
  const b = personAttributes(after);
  return (Object.keys(a) as (keyof typeof a)[]).filter((k) => a[k] !== b[k]);
}

export function periodoRecord(p: Period) {
  return { id: p.id, instituicaoId: p.institutionId, codigo: p.code, nome: p.name, inicio: day(p.startsOn), fim: day(p.endsOn) };
}

export function disciplinaRecord(s: Subject) {
  return { id: s.id, instituicaoId: s.institutionId, nome: s.name, codigo: s.code };
}

export function turmaRecord(c: Class, period: Period) {
  return { id: c.id, instituicaoId: c.institutionId, periodoId: c.periodId, codigoPeriodo: period.code, nome: c.name, serie: c.grade, turno: c.shift };
}

export function turmaAlunoRecord(e: ClassStudent, periodCode: string) {
  return { id: e.id, turmaId: e.classId, alunoId: e.studentId, codigoPeriodo: periodCode };
}

export function disciplinaProfessorRecord(t: SubjectTeacher, periodCode: string) {
  return { id: t.id, turmaId: t.classId, disciplinaId: t.subjectId, professorId: t.teacherId, codigoPeriodo: periodCode };
}

export function responsavelAlunoRecord(g: GuardianStudent) {
  return { id: g.id, responsavelId: g.guardianId, alunoId: g.studentId, parentesco: g.kinship };
}
