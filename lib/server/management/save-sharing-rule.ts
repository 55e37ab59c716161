import type { Prisma } from "@/lib/generated/prisma/client";
import { recordAudit } from "@/lib/server/audit/record-audit";
import type { Tx } from "@/lib/server/db/transaction";
import type { TManagerScope } from "./resolve-manager-scope";
import { parseRoleOverrides } from "@/lib/server/data-api/privacy";
import { fromRoleRules, fromRules, type TAttributeRules, type TRoleRules } from "./sharing-rules";
import { transaction } from "@/lib/server/db/transaction";
import { AppError } from "@/lib/errors";
import { hasContract, resolveSharingRule } from "@/lib/server/privacy/resolve-sharing-rule";

interface TStoredRule {
  allowedAttributes: string[];
  anonymizedAttributes: string[];
  roleOverrides: Prisma.JsonValue;
  /** An application's row only: OneRoster 1.2 on (absent for a tool's). */
  oneRoster?: boolean;
}

/** Where one partner kind keeps its rule row (ApplicationAccess, ToolSharing). */
export interface TSharingRuleStore {
  find(tx: Tx): Promise<TStoredRule | null>;
  upsert(tx: Tx, rule: { allowedAttributes: string[]; anonymizedAttributes: string[]; roleOverrides: Prisma.InputJsonObject; oneRoster?: boolean }): Promise<unknown>;
  remove(tx: Tx): Promise<unknown>;
}

/**
 * A rule as the history keeps it: the base lists and, when some role differs, `roles` with each
 * overridden role's lists; `oneRoster: true` when an application's rule turns OneRoster 1.2 on
 * (absent when off, as in every row audited before it existed). list-sharing-rule-changes.ts reads it.
 */
function auditedRule(rule: TStoredRule | { allowedAttributes: string[]; anonymizedAttributes: string[]; roleOverrides: unknown; oneRoster?: boolean }) {
  const overrides = parseRoleOverrides(rule.roleOverrides);
  const roles = Object.fromEntries(Object.entries(overrides).map(([role, o]) => [role, { allowed: o.allowedAttributes, anonymized: o.anonymizedAttributes }]));
  return {
    allowed: rule.allowedAttributes,
    anonymized: rule.anonymizedAttributes,
    ...(Object.keys(roles).length ? { roles } : {}),
    ...(rule.oneRoster ? { oneRoster: true } : {}),
  };
}

/** The partner whose rule is saved, as its edtech's contract and the history need it. */
export interface TRulePartner {
  kind: "application" | "tool";
  id: string;
  name: string;
  edtechId: string;
}

/**
 * Saves an institution's own sharing rule for one partner (an application or a tool), or with
 * `rules: null` removes it so the ancestors' rule applies again; audited in the same transaction
 * with the partner's name and the before and after values, role overrides included (the history,
 * list-sharing-rule-changes). The partner's edtech must have a contract with the institution or
 * an ancestor: else, as for no partner at all, not_found with `notFound`. The caller checks reach.
 */
export async function saveSharingRule(options: {
  scope: TManagerScope;
  institutionId: string;
  partner: TRulePartner | null;
  notFound: string;
  rules: TAttributeRules | null;
  /** Per-role overrides of `rules` (ignored when removing). */
  roles?: TRoleRules;
  /** An application's rule only: whether it turns OneRoster 1.2 on (ignored when removing). */
  oneRoster?: boolean;
  store: (partnerId: string) => TSharingRuleStore;
}): Promise<void> {
  const { rules, partner, institutionId } = options;
  const current = partner && (await resolveSharingRule({ institutionId, partner: { kind: partner.kind, id: partner.id, edtechId: partner.edtechId }, role: null }));
  if (!partner || !current || !hasContract(current)) throw new AppError("not_found", options.notFound);
  const store = options.store(partner.id);
  const auditKind = partner.kind === "application" ? "application_access" : "tool_sharing";
  const after = rules && {
    ...fromRules(rules),
    roleOverrides: fromRoleRules(rules, options.roles ?? {}) as Prisma.InputJsonObject,
    ...(options.oneRoster !== undefined ? { oneRoster: options.oneRoster } : {}),
  };
  await transaction(async (tx) => {
    const before = await store.find(tx);
    if (after) await store.upsert(tx, after);
    else if (before) await store.remove(tx);
    else return;
    await recordAudit(tx, {
      actorPersonId: options.scope.personId,
      action: `${auditKind}.${rules ? "set" : "delete"}`,
      targetType: auditKind,
      targetId: partner.id,
      edtechId: partner.edtechId,
      institutionId,
      // The partner's name is kept so the history still names it after the partner is deleted.
      details: {
        partnerName: partner.name,
        before: before ? auditedRule(before) : null,
        after: after ? auditedRule(after) : null,
      },
    });
  });
}
