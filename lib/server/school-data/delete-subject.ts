import { AppError } from "@/lib/errors";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { disciplinaChange } from "./changes";

export async function deleteSubject({ subjectId }: { subjectId: string }, options: WriteOptions = {}): Promise<void> {
  await inTransaction(options, "Disciplina", async (tx) => {
    const subject = await tx.subject.findUnique({ where: { id: subjectId }, include: { _count: { select: { subjectTeachers: true } } } });
    if (!subject) throw new AppError("not_found", "Disciplina não encontrada.");
    if (subject._count.subjectTeachers > 0) throw new AppError("conflict", "A disciplina ainda tem professores atribuídos.");
    const { _count, ...row } = subject;
    await tx.subject.delete({ where: { id: subjectId } });
    await recordChange(tx, disciplinaChange("delete", row));
  });
}
