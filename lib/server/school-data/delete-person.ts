import { AppError } from "@/lib/errors";
import { deleteProfile } from "./delete-profile";
import { inTransaction, type WriteOptions } from "./record-change";

/** Removes a person with all their profiles (each emitting its `usuario` delete). */
export async function deletePerson({ personId }: { personId: string }, options: WriteOptions = {}): Promise<void> {
  await inTransaction(options, "Pessoa", async (tx) => {
    const person = await tx.person.findUnique({ where: { id: personId }, include: { profiles: { select: { id: true } } } });
    if (!person) throw new AppError("not_found", "Pessoa não encontrada.");
    for (const { id } of person.profiles) await deleteProfile({ profileId: id }, { tx });
    await tx.edtechMember.deleteMany({ where: { personId } });
    await tx.person.delete({ where: { id: personId } });
  });
}
