import { z } from "zod";
import type { Period } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { ZPeriodUpdateSchema } from "@/lib/validations/school-data";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { periodoChange } from "./changes";

export async function updatePeriod(
  { periodId, changes }: { periodId: string; changes: z.input<typeof ZPeriodUpdateSchema> },
  options: WriteOptions = {},
): Promise<Period> {
  const data = ZPeriodUpdateSchema.parse(changes);
  return inTransaction(options, "Período", async (tx) => {
    const existing = await tx.period.findUnique({ where: { id: periodId } });
    if (!existing) throw new AppError("not_found", "Período não encontrado.");
    const period = await tx.period.update({
      where: { id: periodId },
      data: {
        name: data.name,
        startsOn: data.startsOn ? new Date(`${data.startsOn}T00:00:00Z`) : undefined,
        endsOn: data.endsOn ? new Date(`${data.endsOn}T00:00:00Z`) : undefined,
      },
    });
    if (period.startsOn > period.endsOn) throw new AppError("bad_request", "O fim vem antes do início.", { endsOn: "O fim vem antes do início" });
    await recordChange(tx, periodoChange("update", period));
    return period;
  });
}
