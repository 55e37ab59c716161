import type { Profile } from "@/lib/generated/prisma/client";
import { AppError } from "@/lib/errors";
import { ZProfileInputSchema, type TProfileInput } from "@/lib/validations/school-data";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { usuarioChange } from "./changes";

export async function createProfile(input: TProfileInput, options: WriteOptions = {}): Promise<Profile> {
  const data = ZProfileInputSchema.parse(input);
  return inTransaction(options, "Perfil", async (tx) => {
    const person = await tx.person.findUnique({ where: { id: data.personId } });
    if (!person) throw new AppError("not_found", "Pessoa não encontrada.");
    const profile = await tx.profile.create({ data });
    await recordChange(tx, usuarioChange("insert", profile));
    return profile;
  });
}
