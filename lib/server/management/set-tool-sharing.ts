import { db } from "@/lib/db";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { AppError } from "@/lib/errors";
import { resolveSharingRule } from "@/lib/server/privacy/resolve-sharing-rule";
import { PERSONAL_ATTRIBUTES } from "@/lib/validations/data-api";
import { ZIdSchema, ZToolSharingSchema, type TToolSharingInput } from "@/lib/validations/management";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";

/**
 * Chooses, for one tool at an institution, the rule per personal attribute its launches follow
 * (allowed, anonymized, not shared) — the same rules as an application's — or, with `remove`,
 * drops the institution's own rule so the ancestors' applies again (none: nothing personal is
 * sent). The tool's edtech must have a contract with the institution or an ancestor. Audited with
 * the before and after values.
 */
export async function setToolSharing(
  options: { scope: TManagerScope } & ({ settings: TToolSharingInput } | { remove: { institutionId: string; toolId: string } }),
): Promise<void> {
  const target =
    "settings" in options
      ? ZToolSharingSchema.parse(options.settings)
      : { institutionId: ZIdSchema.parse(options.remove.institutionId), toolId: ZIdSchema.parse(options.remove.toolId), rules: null };
  const institution = requireInReach({ scope: options.scope, institutionId: target.institutionId });
  const tool = await db().tool.findUnique({ where: { id: target.toolId }, select: { id: true, edtechId: true, title: true } });
  const current = tool ? await resolveSharingRule({ institutionId: institution.id, partner: { kind: "tool", id: tool.id, edtechId: tool.edtechId } }) : null;
  if (!tool || !current?.enabled) throw new AppError("not_found", "Ferramenta não encontrada entre as edtechs vinculadas.");

  const allowed = target.rules ? PERSONAL_ATTRIBUTES.filter((a) => target.rules[a] !== "nao_compartilhado") : [];
  const anonymized = target.rules ? PERSONAL_ATTRIBUTES.filter((a) => target.rules[a] === "anonimizado") : [];
  const where = { institutionId_toolId: { institutionId: institution.id, toolId: tool.id } };
  await db().$transaction(async (tx) => {
    const before = await tx.toolSharing.findUnique({ where });
    if (target.rules) {
      await tx.toolSharing.upsert({
        where,
        create: { institutionId: institution.id, toolId: tool.id, allowedAttributes: allowed, anonymizedAttributes: anonymized },
        update: { allowedAttributes: allowed, anonymizedAttributes: anonymized },
      });
    } else if (before) {
      await tx.toolSharing.delete({ where });
    } else {
      return;
    }
    await recordAudit(tx, {
      actorPersonId: options.scope.personId,
      action: target.rules ? "tool_sharing.set" : "tool_sharing.delete",
      targetType: "tool_sharing",
      targetId: tool.id,
      edtechId: tool.edtechId,
      institutionId: institution.id,
      details: {
        // The history names the tool even after it is deleted (list-sharing-rule-changes.ts).
        partnerName: tool.title,
        before: before ? { allowed: before.allowedAttributes, anonymized: before.anonymizedAttributes } : null,
        after: target.rules ? { allowed, anonymized } : null,
      },
    });
  });
}
