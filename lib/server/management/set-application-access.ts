import { db } from "@/lib/server/db/database";
import { ZAccessSettingsSchema, ZIdSchema, type TAccessSettingsInput } from "@/lib/validations/management";
import { requireInReach } from "./require-in-reach";
import { saveSharingRule } from "./save-sharing-rule";
import type { TManagerScope } from "./resolve-manager-scope";

/**
 * Enables an application at an institution with one rule per personal attribute (allowed,
 * anonymized, not shared) — the Data API's `configuracao` — or, with `rules: null`, removes the
 * institution's own setting so the ancestors' applies again. The row also says whether OneRoster
 * 1.2 is on (`oneRoster`; inherited like the attributes). The application's edtech must have a
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
  await saveSharingRule({
    scope: options.scope,
    institutionId: institution.id,
    partner: application && { kind: "application", ...application },
    notFound: "Aplicação não encontrada entre as edtechs vinculadas.",
    rules: target.rules,
    roles: "roles" in target ? target.roles : {},
    oneRoster: "oneRoster" in target ? target.oneRoster : false,
    store: (applicationId) => {
      const where = { institutionId_applicationId: { institutionId: institution.id, applicationId } };
      return {
        find: (tx) => tx.applicationAccess.findUnique({ where }),
        upsert: (tx, rule) => tx.applicationAccess.upsert({ where, create: { institutionId: institution.id, applicationId, ...rule }, update: rule }),
        remove: (tx) => tx.applicationAccess.delete({ where }),
      };
    },
  });
}
