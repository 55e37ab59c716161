import { randomUUID } from "node:crypto";
import { z } from "zod";
import type { Person, Profile } from "@/lib/generated/prisma/client";
import { ZPersonInputSchema, ZRoleSchema } from "@/lib/validations/school-data";
import { inTransaction, recordChanges, type ChangeInput, type WriteOptions } from "./record-change";
import { usuarioChange } from "./changes";

const ZImportProfilesSchema = z.object({
  institutionId: z.uuid(),
  people: z
    .array(z.object({ person: ZPersonInputSchema.omit({ password: true }), role: ZRoleSchema }))
    .min(1)
    .max(5_000),
});

/**
 * Creates many new people, each with one profile (any role) at the institution, in one
 * transaction with batched inserts — importStudents' counterpart for people who are not enrolled
 * in a class. Emits exactly the events createPerson + createProfile would: one `usuario` insert
 * per profile.
 */
export async function importProfiles(input: z.input<typeof ZImportProfilesSchema>, options: WriteOptions = {}): Promise<{ profileIds: string[] }> {
  const { institutionId, people } = ZImportProfilesSchema.parse(input);
  return inTransaction(options, "Pessoa com este e-mail ou CPF", async (tx) => {
    const now = new Date();
    const persons: Person[] = [];
    const profiles: Profile[] = [];
    const events: ChangeInput[] = [];
    for (const { person: p, role } of people) {
      const person: Person = {
        id: randomUUID(), name: p.name, birthDate: p.birthDate ? new Date(`${p.birthDate}T00:00:00Z`) : null,
        cpf: p.cpf ?? null, email: p.email ?? null, phone: p.phone ?? null, passwordHash: null, createdAt: now, updatedAt: now,
      };
      const profile: Profile = { id: randomUUID(), personId: person.id, institutionId, role, createdAt: now, updatedAt: now };
      persons.push(person);
      profiles.push(profile);
      events.push(usuarioChange("insert", profile));
    }
    await tx.person.createMany({ data: persons });
    await tx.profile.createMany({ data: profiles });
    await recordChanges(tx, events);
    return { profileIds: profiles.map((p) => p.id) };
  });
}
