import { z } from "zod";
import type { Subject } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { ZSubjectUpdateSchema } from "@/lib/validations/school-data";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { disciplinaChange } from "./changes";

export async function updateSubject(
  { subjectId, changes }: { subjectId: string; changes: z.input<typeof ZSubjectUpdateSchema> },
  options: WriteOptions = {},
): Promise<Subject> {
  const data = ZSubjectUpdateSchema.parse(changes);
  return inTransaction(options, "Disciplina com este nome", async (tx) => {
    if (!(await tx.subject.findUnique({ where: { id: subjectId } }))) throw new AppError("not_found", "Disciplina não encontrada.");
    const subject = await tx.subject.update({ where: { id: subjectId }, data });
    await recordChange(tx, disciplinaChange("update", subject));
    return subject;
  });
}
