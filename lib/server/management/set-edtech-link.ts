import { recordAudit } from "@/lib/server/audit/record-audit";
import { AppError } from "@/lib/errors";
import { mapDbError } from "@/lib/server/db/map-db-error";
import { ZEdtechLinkSchema } from "@/lib/validations/management";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";
import { transaction } from "@/lib/server/db/transaction";

/**
 * Links (or unlinks) an edtech to an institution: the contract that lets the edtech's
 * applications read the institution's data and that of its descendants. Only links made at this
 * institution can be removed here; inherited ones belong to the ancestor's manager. Audited with
 * the before and after state.
 */
export async function setEdtechLink(options: { scope: TManagerScope; institutionId: string; edtechId: string; linked: boolean }): Promise<void> {
  const input = ZEdtechLinkSchema.parse({ institutionId: options.institutionId, edtechId: options.edtechId });
  const institution = requireInReach({ scope: options.scope, institutionId: input.institutionId });
  try {
    await transaction(async (tx) => {
      const edtech = await tx.edtech.findUnique({ where: { id: input.edtechId }, select: { id: true, name: true } });
      if (!edtech) throw new AppError("not_found", "Edtech não encontrada.");
      if (options.linked) {
        await tx.edtechLink.create({ data: { institutionId: institution.id, edtechId: input.edtechId } });
      } else {
        const { count } = await tx.edtechLink.deleteMany({ where: { institutionId: institution.id, edtechId: input.edtechId } });
        if (count === 0) throw new AppError("not_found", "Vínculo não encontrado nesta instituição.");
      }
      await recordAudit(tx, {
        actorPersonId: options.scope.personId,
        action: options.linked ? "edtech_link.create" : "edtech_link.delete",
        targetType: "edtech_link",
        targetId: input.edtechId,
        edtechId: input.edtechId,
        institutionId: institution.id,
        // Before and after, as for the sharing rules, so the history reads the same way.
        details: { partnerName: edtech.name, before: { linked: !options.linked }, after: { linked: options.linked } },
      });
    });
  } catch (error) {
    mapDbError(error, "Vínculo com esta edtech");
  }
}
