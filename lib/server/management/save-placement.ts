import { db } from "@/lib/server/db/database";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { ZIdSchema, ZPlacementInputSchema, type TPlacementInput } from "@/lib/validations/management";
import { listAncestors } from "@/lib/server/institution-tree/list-ancestors";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";
import { transaction } from "@/lib/server/db/transaction";

/**
 * Creates a placement, or updates one (`placementId`), of a gallery tool at an institution: for
 * the whole school, for some roles, or for a class (whose members may be narrowed by role). The
 * placement's id is the `resource_link_id` the tool receives, so an update keeps it. The tool must
 * be active and belong to an edtech with a contract here or above; the class must be this
 * institution's. Audited.
 */
export async function savePlacement(options: { scope: TManagerScope; input: TPlacementInput; placementId?: string }): Promise<{ id: string }> {
  const input = ZPlacementInputSchema.parse(options.input);
  const institution = requireInReach({ scope: options.scope, institutionId: input.institutionId });
  const chain = await listAncestors({ institutionId: institution.id });
  const tool = await db().tool.findUnique({ where: { id: input.toolId }, select: { id: true, status: true, edtechId: true } });
  const linked = tool ? await db().edtechLink.count({ where: { edtechId: tool.edtechId, institutionId: { in: chain.map((c) => c.id) } } }) : 0;
  if (!tool || tool.status !== "active" || linked === 0) {
    throw new AppError("bad_request", "Ferramenta indisponível para esta instituição.", { toolId: "Escolha uma ferramenta de uma edtech vinculada" });
  }
  if (input.classId) {
    const cls = await db().class.findUnique({ where: { id: input.classId }, select: { institutionId: true } });
    if (!cls || cls.institutionId !== institution.id) throw new AppError("bad_request", "Turma não encontrada nesta escola.", { classId: "Escolha uma turma desta escola" });
  }
  const data = {
    toolId: tool.id,
    institutionId: institution.id,
    classId: input.classId,
    roles: input.roles,
    title: input.title,
    customParams: input.customParams as Prisma.InputJsonValue,
  };
  return transaction(async (tx) => {
    let id: string;
    if (options.placementId) {
      const placementId = ZIdSchema.parse(options.placementId);
      const existing = await tx.placement.findUnique({ where: { id: placementId }, select: { institutionId: true } });
      if (!existing || existing.institutionId !== institution.id) throw new AppError("not_found", "Disponibilização não encontrada.");
      id = (await tx.placement.update({ where: { id: placementId }, data })).id;
    } else {
      id = (await tx.placement.create({ data })).id;
    }
    await recordAudit(tx, {
      actorPersonId: options.scope.personId,
      action: options.placementId ? "placement.update" : "placement.create",
      targetType: "placement",
      targetId: id,
      edtechId: tool.edtechId,
      institutionId: institution.id,
      details: { toolId: tool.id, roles: input.roles, classId: input.classId },
    });
    return { id };
  });
}
