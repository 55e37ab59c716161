import { AppError } from "@/lib/errors";
import { inTransaction, type WriteOptions } from "./record-change";
import { removeTeachings } from "./remove-links";

export async function unassignTeacher({ assignmentId }: { assignmentId: string }, options: WriteOptions = {}): Promise<void> {
  await inTransaction(options, "Atribuição", async (tx) => {
    if ((await removeTeachings(tx, { id: assignmentId })) === 0) throw new AppError("not_found", "Atribuição não encontrada.");
  });
}
