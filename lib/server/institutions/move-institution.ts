import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { Institution } from "@/lib/generated/prisma/client";
import { MAX_DEPTH, treeCte } from "@/lib/server/institution-tree/tree-sql";
import { inTransaction, type WriteOptions } from "@/lib/server/school-data/record-change";

export const ZInstitutionMoveSchema = z.object({
  institutionId: z.uuid({ message: "Identificador inválido" }),
  parentId: z.uuid({ message: "Escolha a nova instituição superior" }),
});

// The new parent and its ancestors, nearest first.
const ANCESTORS_SQL = `WITH RECURSIVE ${treeCte("up", "$1::uuid")} SELECT id FROM up ORDER BY depth`;

/**
 * Moves an institution (with its whole subtree) under another parent. Refuses a move under itself
 * or one of its descendants, which would detach the subtree into a cycle. Edtech links and access
 * rows inherited from the old ancestors stop applying, and the new ancestors' start to.
 */
export async function moveInstitution(input: z.input<typeof ZInstitutionMoveSchema>, options: WriteOptions = {}): Promise<Institution> {
  const data = ZInstitutionMoveSchema.parse(input);
  return inTransaction(options, "Instituição", async (tx) => {
    if (!(await tx.institution.findUnique({ where: { id: data.institutionId } }))) throw new AppError("not_found", "Instituição não encontrada.");
    // Up from the new parent: meeting the institution itself means a cycle.
    const chain = await tx.$queryRawUnsafe<{ id: string }[]>(ANCESTORS_SQL, data.parentId);
    if (chain.length === 0) throw new AppError("not_found", "Instituição superior não encontrada.", { parentId: "Instituição superior não encontrada" });
    if (chain.some((c) => c.id === data.institutionId)) {
      throw new AppError("bad_request", "Uma instituição não pode ficar abaixo dela mesma ou de uma de suas unidades.", { parentId: "Escolha outra instituição superior" });
    }
    if (chain.length > MAX_DEPTH) throw new AppError("bad_request", "Hierarquia profunda demais.", { parentId: "Hierarquia profunda demais" });
    return tx.institution.update({ where: { id: data.institutionId }, data: { parentId: data.parentId } });
  });
}
