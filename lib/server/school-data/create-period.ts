import type { Period } from "@/lib/generated/prisma/client";
import { ZPeriodInputSchema, type TPeriodInput } from "@/lib/validations/school-data";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { periodoChange } from "./changes";

const asDate = (s: string) => new Date(`${s}T00:00:00Z`);

export async function createPeriod(input: TPeriodInput, options: WriteOptions = {}): Promise<Period> {
  const data = ZPeriodInputSchema.parse(input);
  return inTransaction(options, "Período com este código", async (tx) => {
    const period = await tx.period.create({ data: { ...data, startsOn: asDate(data.startsOn), endsOn: asDate(data.endsOn) } });
    await recordChange(tx, periodoChange("insert", period));
    return period;
  });
}
