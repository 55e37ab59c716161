// The Data API event of a write, per entity: which institution's feed it goes to, the record it
// carries, the people it is about (the pairwise ids and `user_id` of decision 014) and its period.
// Every write and every import builds its events here, so an entity's event has one shape.
import type { ChangeKind, Class, ClassStudent, GuardianStudent, Period, Profile, Subject, SubjectTeacher } from "@/lib/generated/prisma/client";
import type { ChangeInput } from "./record-change";
import { disciplinaProfessorRecord, disciplinaRecord, periodoRecord, responsavelAlunoRecord, turmaAlunoRecord, turmaRecord, usuarioRecord } from "./snapshots";

/** A link row's class: the institution whose feed carries the link, and the period's code. */
export interface TClassOfLink {
  institutionId: string;
  period: { code: string };
}

/** A profile's event; an update names the personal attributes it changed. */
export function usuarioChange(kind: ChangeKind, profile: Profile, changed?: string[]): ChangeInput {
  return { institutionId: profile.institutionId, entity: "usuario", kind, record: usuarioRecord(profile), profileIds: [profile.id], ...(changed ? { changed } : {}) };
}

export function periodoChange(kind: ChangeKind, period: Period): ChangeInput {
  return { institutionId: period.institutionId, entity: "periodo", kind, record: periodoRecord(period), periodCode: period.code };
}

export function disciplinaChange(kind: ChangeKind, subject: Subject): ChangeInput {
  return { institutionId: subject.institutionId, entity: "disciplina", kind, record: disciplinaRecord(subject) };
}

export function turmaChange(kind: ChangeKind, cls: Class, period: Period): ChangeInput {
  return { institutionId: cls.institutionId, entity: "turma", kind, record: turmaRecord(cls, period), periodCode: period.code };
}

export function turmaAlunoChange(kind: ChangeKind, row: ClassStudent, cls: TClassOfLink): ChangeInput {
  const periodCode = cls.period.code;
  return { institutionId: cls.institutionId, entity: "turmaAluno", kind, record: turmaAlunoRecord(row, periodCode), profileIds: [row.studentId], periodCode };
}

export function disciplinaProfessorChange(kind: ChangeKind, row: SubjectTeacher, cls: TClassOfLink): ChangeInput {
  const periodCode = cls.period.code;
  return { institutionId: cls.institutionId, entity: "disciplinaProfessor", kind, record: disciplinaProfessorRecord(row, periodCode), profileIds: [row.teacherId], periodCode };
}

/** A guardianship goes to the student's institution's feed. */
export function responsavelAlunoChange(kind: ChangeKind, row: GuardianStudent, studentInstitutionId: string): ChangeInput {
  return { institutionId: studentInstitutionId, entity: "responsavelAluno", kind, record: responsavelAlunoRecord(row), profileIds: [row.guardianId, row.studentId] };
}
