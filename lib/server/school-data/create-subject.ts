import type { Subject } from "@/lib/generated/prisma/client";
import { ZSubjectInputSchema, type TSubjectInput } from "@/lib/validations/school-data";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { disciplinaChange } from "./changes";

export async function createSubject(input: TSubjectInput, options: WriteOptions = {}): Promise<Subject> {
  const data = ZSubjectInputSchema.parse(input);
  return inTransaction(options, "Disciplina com este nome", async (tx) => {
    const subject = await tx.subject.create({ data });
    await recordChange(tx, disciplinaChange("insert", subject));
    return subject;
  });
}
