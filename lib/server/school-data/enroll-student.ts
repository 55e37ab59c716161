import type { ClassStudent } from "@/lib/generated/prisma/client";
import { ZEnrollmentInputSchema } from "@/lib/validations/school-data";
import { requireClass } from "./require-class";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { requireProfile } from "./require-profile";
import { turmaAlunoChange } from "./changes";

export async function enrollStudent(input: { classId: string; studentId: string }, options: WriteOptions = {}): Promise<ClassStudent> {
  const data = ZEnrollmentInputSchema.parse(input);
  return inTransaction(options, "Matrícula do aluno nesta turma", async (tx) => {
    const cls = await requireClass(tx, data.classId);
    await requireProfile(tx, data.studentId, "aluno", cls.institutionId);
    const row = await tx.classStudent.create({ data });
    await recordChange(tx, turmaAlunoChange("insert", row, cls));
    return row;
  });
}
