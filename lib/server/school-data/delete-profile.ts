import { AppError } from "@/lib/errors";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { removeEnrollments, removeGuardianships, removeTeachings } from "./remove-links";
import { usuarioChange } from "./changes";

/** Removes a profile and, first, every link it is part of (each with its own delete event). */
export async function deleteProfile({ profileId }: { profileId: string }, options: WriteOptions = {}): Promise<void> {
  await inTransaction(options, "Perfil", async (tx) => {
    const profile = await tx.profile.findUnique({ where: { id: profileId } });
    if (!profile) throw new AppError("not_found", "Perfil não encontrado.");
    // The person's row lock orders this delete with a concurrent updatePerson (which takes it
    // first): otherwise each could miss the other's event and leave both "latest", and a feed
    // that starts later would get an update of a deleted profile (docs/decisions/016).
    await tx.$queryRaw`SELECT 1 FROM "Person" WHERE id = ${profile.personId}::uuid FOR UPDATE`;
    await removeEnrollments(tx, { studentId: profileId });
    await removeTeachings(tx, { teacherId: profileId });
    await removeGuardianships(tx, { OR: [{ guardianId: profileId }, { studentId: profileId }] });
    // Protocol state (codes, tokens) of the profile goes with it; it is not school data.
    await tx.accessToken.deleteMany({ where: { profileId } });
    await tx.authorizationCode.deleteMany({ where: { profileId } });
    await tx.profile.delete({ where: { id: profileId } });
    await recordChange(tx, usuarioChange("delete", profile));
  });
}
