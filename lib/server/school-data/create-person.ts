import type { Person } from "@/lib/generated/prisma/client";
import { hashPassword } from "@/lib/server/crypto/password";
import { ZPersonInputSchema, type TPersonInput } from "@/lib/validations/school-data";
import { inTransaction, type WriteOptions } from "./record-change";

/**
 * Creates a hub identity. A person belongs to no institution until a profile is created for
 * them, so this write has no Data API event of its own: createProfile emits `usuario` insert.
 */
export async function createPerson(input: TPersonInput, options: WriteOptions = {}): Promise<Person> {
  const { password, ...data } = ZPersonInputSchema.parse(input);
  const passwordHash = password ? await hashPassword(password) : null;
  return inTransaction(options, "Pessoa com este e-mail ou CPF", (tx) =>
    tx.person.create({
      data: { ...data, birthDate: data.birthDate ? new Date(`${data.birthDate}T00:00:00Z`) : null, passwordHash },
    }),
  );
}
