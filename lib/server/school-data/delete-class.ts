import { requireClass } from "./require-class";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { removeEnrollments, removeTeachings } from "./remove-links";
import { turmaChange } from "./changes";

/** Removes a class with its enrollments and teacher assignments, each with its delete event. */
export async function deleteClass({ classId }: { classId: string }, options: WriteOptions = {}): Promise<void> {
  await inTransaction(options, "Turma", async (tx) => {
    const cls = await requireClass(tx, classId);
    await removeEnrollments(tx, { classId });
    await removeTeachings(tx, { classId });
    await tx.placement.deleteMany({ where: { classId } });
    const { period, ...row } = cls;
    await tx.class.delete({ where: { id: classId } });
    await recordChange(tx, turmaChange("delete", row, period));
  });
}
