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

/** One institution on the way up, with the partner's contract and rule row there (if any). */
export interface TRuleRow {
  id: string;
  depth: number;
  linked: boolean;
  allowedAttributes: string[] | null;
  anonymizedAttributes: string[] | null;
  roleOverrides: unknown;
}

// A cycle cannot be created through the services, but a bound keeps a bad row from looping.
const MAX_DEPTH = 64;

const RULE_TABLES: Record<TSharingPartner["kind"], { table: string; partnerColumn: string }> = {
  application: { table: "ApplicationAccess", partnerColumn: "applicationId" },
  tool: { table: "ToolSharing", partnerColumn: "toolId" },
};

/**
 * The rule rows (TRuleRow, nearest first) as a statement of its own, or, with SQL expressions for
 * the institution, the edtech and the partner, as a sub-select another statement embeds (the
 * launch reads its placement and its rule in one round trip). Fixed strings only: the table,
 * the column and the expressions never come from input.
 */
export function ruleRowsSql(kind: TSharingPartner["kind"], refs = { institution: "$1::uuid", edtech: "$2::uuid", partner: "$3::uuid" }): string {
  const { table, partnerColumn } = RULE_TABLES[kind];
  return `
WITH RECURSIVE up AS (
  SELECT i.id, i."parentId", 0 AS depth FROM "Institution" i WHERE i.id = ${refs.institution}
  UNION ALL
  SELECT p.id, p."parentId", up.depth + 1 FROM "Institution" p JOIN up ON p.id = up."parentId"
  WHERE up.depth < ${MAX_DEPTH}
)
SELECT up.id, up.depth,
       EXISTS (SELECT 1 FROM "EdtechLink" l WHERE l."institutionId" = up.id AND l."edtechId" = ${refs.edtech}) AS linked,
       r."allowedAttributes", r."anonymizedAttributes", r."roleOverrides"
  FROM up LEFT JOIN "${table}" r ON r."institutionId" = up.id AND r."${partnerColumn}" = ${refs.partner}
 ORDER BY up.depth`;
}

const SQL: Record<TSharingPartner["kind"], string> = { application: ruleRowsSql("application"), tool: ruleRowsSql("tool") };

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
    database().sql.query<TRuleRow>(SQL[partner.kind], [options.institutionId, partner.edtechId, partner.id], { prepared: true }),
    loadIdentityRoots(),
  ]);
  return sharingRuleOf(rows, partner.kind, options.role);
}

/** The rule the rows give (nearest first) for data about a profile of `role` (see resolveSharingRule). */
export function sharingRuleOf(rows: readonly TRuleRow[], kind: TSharingPartner["kind"], role: TProfileRole | null): TSharingRule {
  if (!rows.some((r) => r.linked)) return { enabled: false, reason: "no_contract" };
  const nearest = rows.find((r) => r.allowedAttributes !== null);
  if (!nearest && kind === "application") return { enabled: false, reason: "not_enabled" };
  const byRole = combineRuleSettings([(nearest && ruleSettingsOf(nearest)) ?? { allowedAttributes: [], anonymizedAttributes: [], roleOverrides: {} }]);
  return {
    enabled: true,
    configuration: role ? byRole[role] : strictestConfiguration(byRole),
    byRole,
    ruleInstitutionId: nearest?.id ?? null,
  };
}
