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

/** One institution on the way up, with the partner's contract and rule row there (if any). */
export interface TRuleRow {
  id: string;
  depth: number;
  linked: boolean;
  allowedAttributes: string[] | null;
  anonymizedAttributes: string[] | null;
  roleOverrides: unknown;
}

const RULE_TABLES: Record<TSharingPartner["kind"], { table: string; partnerColumn: string }> = {
  application: { table: "ApplicationAccess", partnerColumn: "applicationId" },
  tool: { table: "ToolSharing", partnerColumn: "toolId" },
};

/**
 * The rule rows (TRuleRow, nearest first) as a statement of its own, or, with SQL expressions for
 * the institution, the edtech and the partner, as a sub-select another statement embeds (the
 * launch and user info read their rule in the same round trip as the rest). Fixed strings only:
 * the table, the column and the expressions never come from input. Every table read here (the rule
 * tables, EdtechLink, Institution's tree) changes "SharingRuleVersion" in the writer's commit
 * (migration 20261202090000_sharing_rule_version): user info's kept answers depend on it
 * (docs/decisions/043); a new table read here needs the same trigger.
 */
export function ruleRowsSql(kind: TSharingPartner["kind"], refs = { institution: "$1::uuid", edtech: "$2::uuid", partner: "$3::uuid" }): string {
  const { table, partnerColumn } = RULE_TABLES[kind];
  return `
WITH RECURSIVE ${treeCte("up", refs.institution)}
SELECT up.id, up.depth,
       EXISTS (SELECT 1 FROM "EdtechLink" l WHERE l."institutionId" = up.id AND l."edtechId" = ${refs.edtech}) AS linked,
       r."allowedAttributes", r."anonymizedAttributes", r."roleOverrides"
  FROM up LEFT JOIN "${table}" r ON r."institutionId" = up.id AND r."${partnerColumn}" = ${refs.partner}
 ORDER BY up.depth`;
}

/**
 * The rule rows as one JSON array column (nearest first), for a statement that reads its rule in
 * the same round trip as the rest: launch and user info; `refs` as for ruleRowsSql.
 */
export function ruleRowsColumnSql(kind: TSharingPartner["kind"], refs: { institution: string; edtech: string; partner: string }): string {
  return `(SELECT coalesce(json_agg(x ORDER BY x.depth), '[]') FROM (${ruleRowsSql(kind, refs)}) x)`;
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
  const access = effectiveAccess(rows.map((r) => ({ id: r.id, linked: r.linked, rule: ruleSettingsOf(r) })), kind);
  if (!access.enabled) return { enabled: false, reason: access.reason };
  const nearest = access.ruleLevel;
  const byRole = combineRuleSettings([nearest?.rule ?? { allowedAttributes: [], anonymizedAttributes: [], roleOverrides: {} }]);
  return {
    enabled: true,
    configuration: role ? byRole[role] : strictestConfiguration(byRole),
    byRole,
    ruleInstitutionId: nearest?.id ?? null,
  };
}
