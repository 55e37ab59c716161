import type { Person } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { hashPassword } from "@/lib/server/crypto/password";
import { ZPersonUpdateSchema, type TPersonUpdate } from "@/lib/validations/school-data";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { usuarioChange } from "./changes";
import { changedAttributes } from "./snapshots";

/** Updates a person; every profile of theirs gets a `usuario` update event in its institution. */
export async function updatePerson(
  { personId, changes }: { personId: string; changes: TPersonUpdate },
  options: WriteOptions = {},
): Promise<Person> {
  const { password, birthDate, ...data } = ZPersonUpdateSchema.parse(changes);
  const passwordHash = password ? await hashPassword(password) : undefined;
  return inTransaction(options, "Pessoa com este e-mail ou CPF", async (tx) => {
    const existing = await tx.person.findUnique({ where: { id: personId } });
    if (!existing) throw new AppError("not_found", "Pessoa não encontrada.");
    const person = await tx.person.update({
      where: { id: personId },
      data: {
        ...data,
        ...(birthDate !== undefined ? { birthDate: birthDate ? new Date(`${birthDate}T00:00:00Z`) : null } : {}),
        ...(passwordHash ? { passwordHash } : {}),
      },
    });
    // A password change is not school data: no event unless a shared attribute changed. The event
    // names what changed (never a value), so a partner that cannot see it is not sent the update.
    const changed = changedAttributes(existing, person);
    if (changed.length === 0) return person;
    const profiles = await tx.profile.findMany({ where: { personId } });
    for (const profile of profiles) {
      await recordChange(tx, usuarioChange("update", profile, changed));
    }
    return person;
  });
}
