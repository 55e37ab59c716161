// The record each Data API event carries, per entity. Keys are the Data API's (Portuguese) field
// names; personal attributes use the attribute names of `configuracao` so the privacy filter can
// act on them by name.
import type { Class, ClassStudent, GuardianStudent, Period, Person, Profile, Subject, SubjectTeacher } from "@/lib/generated/prisma/client";

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

/** The personal attributes of `configuracao`, by their Data API names. */
export function personAttributes(person: Person) {
  return {
    nome_usuario: person.name,
    idade: day(person.birthDate),
    cpf: person.cpf,
    email_usuario: person.email,
    telefone: person.phone,
  };
}

export function usuarioRecord(profile: Profile, person: Person) {
  return {
    id: profile.id,
    pessoaId: person.id,
    instituicaoId: profile.institutionId,
    perfil: profile.role,
    ...personAttributes(person),
  };
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
