import { AppError } from "@/lib/errors";
import { inTransaction, type WriteOptions } from "./record-change";
import { removeEnrollments } from "./remove-links";

export async function unenrollStudent({ enrollmentId }: { enrollmentId: string }, options: WriteOptions = {}): Promise<void> {
  await inTransaction(options, "Matrícula", async (tx) => {
    if ((await removeEnrollments(tx, { id: enrollmentId })) === 0) throw new AppError("not_found", "Matrícula não encontrada.");
  });
}
