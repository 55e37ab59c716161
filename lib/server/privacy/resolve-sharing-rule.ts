// The one rule engine for every outward channel (issue #14, point 1): whether an institution
// shares data with a partner — an OAuth application (sign-in, user info) or an LTI tool (launch) —
// and which personal attributes, allowed or anonymized.
//
// Walking up from the institution:
//   - the partner's edtech must have an EdtechLink at that institution or an ancestor (the
//     contract). Without one the partner gets nothing: no sign-in, no launch;
//   - the nearest rule row (ApplicationAccess for an application, ToolSharing for a tool) at the
//     institution or an ancestor gives the attributes.
// Without any rule row an application is not enabled (the manager enables it by choosing its
// rules); a tool is enabled by its placement, so it is launched with no personal attribute
// (docs/decisions/012-one-sharing-rule.md).
// A rule row may override its base rule per role (docs/decisions/015-sharing-rules-per-role.md):
// the nearest row decides, and within it the role's override if it has one, else its base. Every
// channel passes the role of the profile the data is about.
// The Data API reads the same rows in its own one-round-trip query (authorize-data-access.ts),
// which also combines the descendants' rules for a network-wide read.
import { database } from "@/lib/db";
import { loadIdentityRoots } from "@/lib/server/crypto/identity-root";
import {
  combineRuleSettings,
  ruleSettingsOf,
  strictestConfiguration,
  type TAttributeConfiguration,
  type TRoleConfigurations,
} from "@/lib/server/data-api/privacy";
import type { TProfileRole } from "@/lib/validations/data-api";

export interface TSharingPartner {
  kind: "application" | "tool";
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

// A cycle cannot be created through the services, but a bound keeps a bad row from looping.
const MAX_DEPTH = 64;

const ruleSql = (table: string, partnerColumn: string) => `
WITH RECURSIVE up AS (
  SELECT i.id, i."parentId", 0 AS depth FROM "Institution" i WHERE i.id = $1::uuid
  UNION ALL
  SELECT p.id, p."parentId", up.depth + 1 FROM "Institution" p JOIN up ON p.id = up."parentId"
  WHERE up.depth < ${MAX_DEPTH}
)
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
  if (!rows.some((r) => r.linked)) return { enabled: false, reason: "no_contract" };
  const nearest = rows.find((r) => r.allowedAttributes !== null);
  if (!nearest && partner.kind === "application") return { enabled: false, reason: "not_enabled" };
  const byRole = combineRuleSettings([(nearest && ruleSettingsOf(nearest)) ?? { allowedAttributes: [], anonymizedAttributes: [], roleOverrides: {} }]);
  return {
    enabled: true,
    configuration: options.role ? byRole[options.role] : strictestConfiguration(byRole),
    byRole,
    ruleInstitutionId: nearest?.id ?? null,
  };
}
