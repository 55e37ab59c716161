import type { SubjectTeacher } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { ZTeachingInputSchema } from "@/lib/validations/school-data";
import { requireClass } from "./require-class";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { requireProfile } from "./require-profile";
import { disciplinaProfessorChange } from "./changes";

export async function assignTeacher(
  input: { classId: string; subjectId: string; teacherId: string },
  options: WriteOptions = {},
): Promise<SubjectTeacher> {
  const data = ZTeachingInputSchema.parse(input);
  return inTransaction(options, "Atribuição deste professor à disciplina na turma", async (tx) => {
    const cls = await requireClass(tx, data.classId);
    const subject = await tx.subject.findUnique({ where: { id: data.subjectId } });
    if (!subject) throw new AppError("not_found", "Disciplina não encontrada.");
    if (subject.institutionId !== cls.institutionId) throw new AppError("bad_request", "A disciplina é de outra instituição.");
    await requireProfile(tx, data.teacherId, "professor", cls.institutionId);
    const row = await tx.subjectTeacher.create({ data });
    await recordChange(tx, disciplinaProfessorChange("insert", row, cls));
    return row;
  });
}
