// Whether an application is enabled for an institution, and which personal attributes that
// institution shares with it (docs/decisions/005-oauth-tokens.md, "Enabled applications").
// The rule itself (edtech contract up the tree, nearest ApplicationAccess row) is the one every
// outward channel follows: lib/server/privacy/resolve-sharing-rule.ts. The attribute rules are
// those the Data API applies when it reads that institution, so a partner sees one person the
// same way through both interfaces (pseudonyms included).
import type { TAttributeConfiguration } from "@/lib/server/data-api/privacy";
import { resolveSharingRule } from "@/lib/server/privacy/resolve-sharing-rule";
import type { TProfileRole } from "@/lib/validations/data-api";

export type TApplicationAccess =
  | { enabled: true; configuration: TAttributeConfiguration }
  | { enabled: false; reason: "no_contract" | "not_enabled" };

export async function resolveApplicationAccess(options: {
  institutionId: string;
  application: { id: string; edtechId: string };
  /** The role of the profile the data is about: the rule may differ per role. */
  role: TProfileRole;
}): Promise<TApplicationAccess> {
  const rule = await resolveSharingRule({ institutionId: options.institutionId, partner: { kind: "application", ...options.application }, role: options.role });
  return rule.enabled ? { enabled: true, configuration: rule.configuration } : rule;
}
