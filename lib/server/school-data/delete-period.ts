import { AppError } from "@/lib/errors";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { periodoChange } from "./changes";

/** Refuses while the period still has classes: removing a school year's classes is a deliberate act. */
export async function deletePeriod({ periodId }: { periodId: string }, options: WriteOptions = {}): Promise<void> {
  await inTransaction(options, "Período", async (tx) => {
    const period = await tx.period.findUnique({ where: { id: periodId }, include: { _count: { select: { classes: true } } } });
    if (!period) throw new AppError("not_found", "Período não encontrado.");
    if (period._count.classes > 0) throw new AppError("conflict", "Remova as turmas do período antes de excluí-lo.");
    const { _count, ...row } = period;
    await tx.period.delete({ where: { id: periodId } });
    await recordChange(tx, periodoChange("delete", row));
  });
}
