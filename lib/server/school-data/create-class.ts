import type { Class } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { ZClassInputSchema, type TClassInput } from "@/lib/validations/school-data";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { turmaChange } from "./changes";

/** A class belongs to its period's institution. */
export async function createClass(input: TClassInput, options: WriteOptions = {}): Promise<Class> {
  const data = ZClassInputSchema.parse(input);
  return inTransaction(options, "Turma com este nome no período", async (tx) => {
    const period = await tx.period.findUnique({ where: { id: data.periodId } });
    if (!period) throw new AppError("not_found", "Período não encontrado.");
    const cls = await tx.class.create({ data: { ...data, institutionId: period.institutionId } });
    await recordChange(tx, turmaChange("insert", cls, period));
    return cls;
  });
}
