import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { Institution } from "@/lib/generated/prisma/client";
import { inTransaction, type WriteOptions } from "@/lib/server/school-data/record-change";

export const ZInstitutionInputSchema = z.object({
  name: z.string().trim().min(2, "Informe o nome").max(200),
  kind: z.enum(["network", "school"]),
  parentId: z.uuid().nullish(),
});

/** Institutions are not Data API entities; they frame it (org_id and the summary tree). */
export async function createInstitution(input: z.input<typeof ZInstitutionInputSchema>, options: WriteOptions = {}): Promise<Institution> {
  const data = ZInstitutionInputSchema.parse(input);
  return inTransaction(options, "Instituição", async (tx) => {
    if (data.parentId && !(await tx.institution.findUnique({ where: { id: data.parentId } }))) {
      throw new AppError("not_found", "Instituição superior não encontrada.");
    }
    return tx.institution.create({ data });
  });
}
