// Deleting a link row always goes through these, so a link removed directly, with its class or
// with its profile emits the same `delete` event carrying the link's last state.
import type { Prisma } from "@/lib/generated/prisma/client";
import { recordChange, type Tx } from "./record-change";
import { disciplinaProfessorChange, responsavelAlunoChange, turmaAlunoChange } from "./changes";

const withPeriod = { class: { select: { institutionId: true, period: { select: { code: true } } } } } as const;

export async function removeEnrollments(tx: Tx, where: Prisma.ClassStudentWhereInput): Promise<number> {
  const rows = await tx.classStudent.findMany({ where, include: withPeriod });
  for (const { class: cls, ...row } of rows) {
    await tx.classStudent.delete({ where: { id: row.id } });
    await recordChange(tx, turmaAlunoChange("delete", row, cls));
  }
  return rows.length;
}

export async function removeTeachings(tx: Tx, where: Prisma.SubjectTeacherWhereInput): Promise<number> {
  const rows = await tx.subjectTeacher.findMany({ where, include: withPeriod });
  for (const { class: cls, ...row } of rows) {
    await tx.subjectTeacher.delete({ where: { id: row.id } });
    await recordChange(tx, disciplinaProfessorChange("delete", row, cls));
  }
  return rows.length;
}

export async function removeGuardianships(tx: Tx, where: Prisma.GuardianStudentWhereInput): Promise<number> {
  const rows = await tx.guardianStudent.findMany({ where, include: { student: { select: { institutionId: true } } } });
  for (const { student, ...row } of rows) {
    await tx.guardianStudent.delete({ where: { id: row.id } });
    await recordChange(tx, responsavelAlunoChange("delete", row, student.institutionId));
  }
  return rows.length;
}
