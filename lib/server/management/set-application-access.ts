import { db } from "@/lib/db";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { AppError } from "@/lib/errors";
import { PERSONAL_ATTRIBUTES } from "@/lib/validations/data-api";
import { ZAccessSettingsSchema, ZIdSchema, type TAccessSettingsInput } from "@/lib/validations/management";
import { listAncestors } from "./list-ancestors";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";

/**
 * Enables an application at an institution with one rule per personal attribute (allowed,
 * anonymized, not shared) — the Data API's `configuracao` — or, with `rules: null`, removes the
 * institution's own setting so the ancestors' applies again. The application's edtech must have a
 * contract with the institution or an ancestor. Audited with the before and after values.
 */
export async function setApplicationAccess(
  options: { scope: TManagerScope } & ({ settings: TAccessSettingsInput } | { remove: { institutionId: string; applicationId: string } }),
): Promise<void> {
  const target =
    "settings" in options
      ? ZAccessSettingsSchema.parse(options.settings)
      : { institutionId: ZIdSchema.parse(options.remove.institutionId), applicationId: ZIdSchema.parse(options.remove.applicationId), rules: null };
  const institution = requireInReach({ scope: options.scope, institutionId: target.institutionId });
  const application = await db().oAuthApplication.findUnique({ where: { id: target.applicationId }, select: { id: true, name: true, edtechId: true } });
  const chain = await listAncestors({ institutionId: institution.id });
  const linked = application
    ? await db().edtechLink.count({ where: { edtechId: application.edtechId, institutionId: { in: chain.map((c) => c.id) } } })
    : 0;
  if (!application || linked === 0) throw new AppError("not_found", "Aplicação não encontrada entre as edtechs vinculadas.");

  const allowed = target.rules ? PERSONAL_ATTRIBUTES.filter((a) => target.rules[a] !== "nao_compartilhado") : [];
  const anonymized = target.rules ? PERSONAL_ATTRIBUTES.filter((a) => target.rules[a] === "anonimizado") : [];
  const where = { institutionId_applicationId: { institutionId: institution.id, applicationId: application.id } };
  await db().$transaction(async (tx) => {
    const before = await tx.applicationAccess.findUnique({ where });
    if (target.rules) {
      await tx.applicationAccess.upsert({
        where,
        create: { institutionId: institution.id, applicationId: application.id, allowedAttributes: allowed, anonymizedAttributes: anonymized },
        update: { allowedAttributes: allowed, anonymizedAttributes: anonymized },
      });
    } else if (before) {
      await tx.applicationAccess.delete({ where });
    } else {
      return;
    }
    await recordAudit(tx, {
      actorPersonId: options.scope.personId,
      action: target.rules ? "application_access.set" : "application_access.delete",
      targetType: "application_access",
      targetId: application.id,
      edtechId: application.edtechId,
      institutionId: institution.id,
      // The partner's name is kept so the history still names it after the application is deleted.
      details: {
        partnerName: application.name,
        before: before ? { allowed: before.allowedAttributes, anonymized: before.anonymizedAttributes } : null,
        after: target.rules ? { allowed, anonymized } : null,
      },
    });
  });
}
