import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { Institution } from "@/lib/generated/prisma/client";
import { inTransaction, type WriteOptions } from "@/lib/server/school-data/record-change";

export const ZInstitutionMoveSchema = z.object({
  institutionId: z.uuid({ message: "Identificador inválido" }),
  parentId: z.uuid({ message: "Escolha a nova instituição superior" }),
});

// Deeper trees than this are a data error, not a real network.
const MAX_DEPTH = 64;

/**
 * Moves an institution (with its whole subtree) under another parent. Refuses a move under itself
 * or one of its descendants, which would detach the subtree into a cycle. Edtech links and access
 * rows inherited from the old ancestors stop applying, and the new ancestors' start to.
 */
export async function moveInstitution(input: z.input<typeof ZInstitutionMoveSchema>, options: WriteOptions = {}): Promise<Institution> {
  const data = ZInstitutionMoveSchema.parse(input);
  return inTransaction(options, "Instituição", async (tx) => {
    if (!(await tx.institution.findUnique({ where: { id: data.institutionId } }))) throw new AppError("not_found", "Instituição não encontrada.");
    // Walk up from the new parent: meeting the institution itself means a cycle.
    let cursor: string | null = data.parentId;
    for (let depth = 0; cursor; depth++) {
      if (cursor === data.institutionId) {
        throw new AppError("bad_request", "Uma instituição não pode ficar abaixo dela mesma ou de uma de suas unidades.", { parentId: "Escolha outra instituição superior" });
      }
      if (depth > MAX_DEPTH) throw new AppError("bad_request", "Hierarquia profunda demais.", { parentId: "Hierarquia profunda demais" });
      const parent: { parentId: string | null } | null = await tx.institution.findUnique({ where: { id: cursor }, select: { parentId: true } });
      if (!parent) throw new AppError("not_found", "Instituição superior não encontrada.", { parentId: "Instituição superior não encontrada" });
      cursor = parent.parentId;
    }
    return tx.institution.update({ where: { id: data.institutionId }, data: { parentId: data.parentId } });
  });
}
