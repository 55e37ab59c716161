import { recordAudit } from "@/lib/server/audit/record-audit";
import { AppError } from "@/lib/errors";
import { ZIdSchema } from "@/lib/validations/management";
import type { TManagerScope } from "./resolve-manager-scope";
import { transaction } from "@/lib/server/db/transaction";

/** Removes a placement of an institution the manager reaches (404 otherwise). Audited. */
export async function deletePlacement(options: { scope: TManagerScope; placementId: string }): Promise<void> {
  const id = ZIdSchema.safeParse(options.placementId);
  const reach = new Set(options.scope.institutions.map((i) => i.id));
  await transaction(async (tx) => {
    const placement = id.success ? await tx.placement.findUnique({ where: { id: id.data }, include: { tool: { select: { edtechId: true } } } }) : null;
    if (!placement || !reach.has(placement.institutionId)) throw new AppError("not_found", "Disponibilização não encontrada.");
    await tx.placement.delete({ where: { id: placement.id } });
    await recordAudit(tx, {
      actorPersonId: options.scope.personId,
      action: "placement.delete",
      targetType: "placement",
      targetId: placement.id,
      edtechId: placement.tool.edtechId,
      institutionId: placement.institutionId,
      details: { toolId: placement.toolId },
    });
  });
}
