import { z } from "zod";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Institution } from "@/lib/generated/prisma/client";

export const ZInstitutionInputSchema = z.object({
  name: z.string().trim().min(2, "Informe o nome").max(200),
  kind: z.enum(["network", "school"]),
  parentId: z.uuid().nullish(),
});

/** Institutions are not Data API entities; they frame it (org_id and the summary tree). */
export async function createInstitution(input: z.input<typeof ZInstitutionInputSchema>): Promise<Institution> {
  const data = ZInstitutionInputSchema.parse(input);
  if (data.parentId && !(await db().institution.findUnique({ where: { id: data.parentId } }))) {
    throw new AppError("not_found", "Instituição superior não encontrada.");
  }
  return db().institution.create({ data });
}
