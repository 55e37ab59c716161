import { AppError } from "@/lib/errors";
import { inTransaction, type WriteOptions } from "./record-change";
import { removeGuardianships } from "./remove-links";

export async function unlinkGuardian({ guardianshipId }: { guardianshipId: string }, options: WriteOptions = {}): Promise<void> {
  await inTransaction(options, "Vínculo", async (tx) => {
    if ((await removeGuardianships(tx, { id: guardianshipId })) === 0) throw new AppError("not_found", "Vínculo não encontrado.");
  });
}
