// The sharing rule of every outward channel (issue #14, point 1): whether an institution shares
// data with a partner — an OAuth application (sign-in, user info) or an LTI tool (launch) — and
// which personal attributes, allowed or anonymized. Who is enabled and whose rule row applies is
// the hub's one access rule, effectiveAccess (lib/server/institution-tree/effective-access.ts);
// this file reads the chain for one partner and turns the rule row into attribute settings.
// A rule row may override its base rule per role (docs/decisions/015-sharing-rules-per-role.md):
// the nearest row decides, and within it the role's override if it has one, else its base. Every
// channel passes the role of the profile the data is about.
// The Data API reads the same rows in its own one-round-trip query (authorize-data-access.ts),
// which also combines the descendants' rules for a network-wide read, and decides with the same
// effectiveAccess.
import { database } from "@/lib/server/db/database";
import { loadIdentityRoots } from "@/lib/server/crypto/identity-root";
import { effectiveAccess, type TPartnerKind } from "@/lib/server/institution-tree/effective-access";
import { treeCte } from "@/lib/server/institution-tree/tree-sql";
import {
  combineRuleSettings,
  ruleSettingsOf,
  strictestConfiguration,
  type TAttributeConfiguration,
  type TRoleConfigurations,
} from "@/lib/server/data-api/privacy";
import type { TProfileRole } from "@/lib/validations/data-api";

export interface TSharingPartner {
  kind: TPartnerKind;
  id: string;
  edtechId: string;
}

export type TSharingRule =
  | {
      enabled: true;
      /** The rule for the role asked for (the strictest of all roles when asked for none). */
      configuration: TAttributeConfiguration;
      /** The rule of every role. */
      byRole: TRoleConfigurations;
      /** Where the rule applied comes from; null for a tool with no rule row (nothing shared). */
      ruleInstitutionId: string | null;
    }
  | { enabled: false; reason: "no_contract" | "not_enabled" };

interface Row {
  id: string;
  depth: number;
  linked: boolean;
  allowedAttributes: string[] | null;
  anonymizedAttributes: string[] | null;
  roleOverrides: unknown;
}

const ruleSql = (table: string, partnerColumn: string) => `
WITH RECURSIVE ${treeCte("up", "$1::uuid")}
SELECT up.id, up.depth,
       EXISTS (SELECT 1 FROM "EdtechLink" l WHERE l."institutionId" = up.id AND l."edtechId" = $2::uuid) AS linked,
       r."allowedAttributes", r."anonymizedAttributes", r."roleOverrides"
  FROM up LEFT JOIN "${table}" r ON r."institutionId" = up.id AND r."${partnerColumn}" = $3::uuid
 ORDER BY up.depth`;

// Fixed strings only: the table and column never come from input.
const SQL: Record<TSharingPartner["kind"], string> = {
  application: ruleSql("ApplicationAccess", "applicationId"),
  tool: ruleSql("ToolSharing", "toolId"),
};

/** Whether the partner's edtech has a contract at the institution or above, enabled or not yet. */
export function hasContract(rule: TSharingRule): boolean {
  return rule.enabled || rule.reason !== "no_contract";
}

/**
 * The rule for data about a profile of `role` at the institution. `role: null` is for callers that
 * only check the contract or need every role's rule (`byRole`); its `configuration` is then the
 * strictest of all roles.
 */
export async function resolveSharingRule(options: { institutionId: string; partner: TSharingPartner; role: TProfileRole | null }): Promise<TSharingRule> {
  const { partner } = options;
  // Every channel that takes a rule pseudonymizes with it, synchronously, from the identity roots:
  // the rule engine reads them (once per process) so no channel can forget to (ADR 014).
  const [rows] = await Promise.all([
    database().sql.query<Row>(SQL[partner.kind], [options.institutionId, partner.edtechId, partner.id], { prepared: true }),
    loadIdentityRoots(),
  ]);
  const access = effectiveAccess(rows.map((r) => ({ id: r.id, linked: r.linked, rule: ruleSettingsOf(r) })), partner.kind);
  if (!access.enabled) return { enabled: false, reason: access.reason };
  const nearest = access.ruleLevel;
  const byRole = combineRuleSettings([nearest?.rule ?? { allowedAttributes: [], anonymizedAttributes: [], roleOverrides: {} }]);
  return {
    enabled: true,
    configuration: options.role ? byRole[options.role] : strictestConfiguration(byRole),
    byRole,
    ruleInstitutionId: nearest?.id ?? null,
  };
}
