import { z } from "zod";
import type { Class } from "@/lib/generated/prisma/client";
import { ZClassUpdateSchema } from "@/lib/validations/school-data";
import { requireClass } from "./require-class";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { turmaChange } from "./changes";

export async function updateClass(
  { classId, changes }: { classId: string; changes: z.input<typeof ZClassUpdateSchema> },
  options: WriteOptions = {},
): Promise<Class> {
  const data = ZClassUpdateSchema.parse(changes);
  return inTransaction(options, "Turma com este nome no período", async (tx) => {
    await requireClass(tx, classId);
    const cls = await tx.class.update({ where: { id: classId }, data, include: { period: true } });
    const { period, ...row } = cls;
    await recordChange(tx, turmaChange("update", row, period));
    return row;
  });
}
