import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { Institution } from "@/lib/generated/prisma/client";
import { inTransaction, type WriteOptions } from "@/lib/server/school-data/record-change";

export const ZInstitutionUpdateSchema = z.object({
  institutionId: z.uuid({ message: "Identificador inválido" }),
  name: z.string().trim().min(2, "Informe o nome (ao menos 2 letras)").max(200, "Nome longo demais"),
});

/** Renames an institution. Institutions are not Data API entities, so this emits no event. */
export async function updateInstitution(input: z.input<typeof ZInstitutionUpdateSchema>, options: WriteOptions = {}): Promise<Institution> {
  const data = ZInstitutionUpdateSchema.parse(input);
  return inTransaction(options, "Instituição", async (tx) => {
    if (!(await tx.institution.findUnique({ where: { id: data.institutionId } }))) throw new AppError("not_found", "Instituição não encontrada.");
    return tx.institution.update({ where: { id: data.institutionId }, data: { name: data.name } });
  });
}
