import type { Prisma } from "@/lib/generated/prisma/client";
import { recordAudit } from "@/lib/server/audit/record-audit";
import type { Tx } from "@/lib/server/db/transaction";
import type { TManagerScope } from "./resolve-manager-scope";
import { parseRoleOverrides } from "@/lib/server/data-api/privacy";
import { fromRoleRules, fromRules, type TAttributeRules, type TRoleRules } from "./sharing-rules";
import { transaction } from "@/lib/server/db/transaction";

interface TStoredRule {
  allowedAttributes: string[];
  anonymizedAttributes: string[];
  roleOverrides: Prisma.JsonValue;
}

/** Where one partner kind keeps its rule row (ApplicationAccess, ToolSharing). */
export interface TSharingRuleStore {
  find(tx: Tx): Promise<TStoredRule | null>;
  upsert(tx: Tx, rule: { allowedAttributes: string[]; anonymizedAttributes: string[]; roleOverrides: Prisma.InputJsonObject }): Promise<unknown>;
  remove(tx: Tx): Promise<unknown>;
}

/**
 * A rule as the history keeps it: the base lists and, when some role differs, `roles` with each
 * overridden role's lists (list-sharing-rule-changes.ts reads it).
 */
function auditedRule(rule: TStoredRule | { allowedAttributes: string[]; anonymizedAttributes: string[]; roleOverrides: unknown }) {
  const overrides = parseRoleOverrides(rule.roleOverrides);
  const roles = Object.fromEntries(Object.entries(overrides).map(([role, o]) => [role, { allowed: o.allowedAttributes, anonymized: o.anonymizedAttributes }]));
  return { allowed: rule.allowedAttributes, anonymized: rule.anonymizedAttributes, ...(Object.keys(roles).length ? { roles } : {}) };
}

/**
 * Saves an institution's own sharing rule for one partner (an application or a tool), or with
 * `rules: null` removes it so the ancestors' rule applies again; audited in the same transaction
 * with the partner's name and the before and after values, role overrides included (the history,
 * list-sharing-rule-changes).
 * The callers check reach and the edtech contract first: they differ per partner kind.
 */
export async function saveSharingRule(options: {
  scope: TManagerScope;
  institutionId: string;
  rules: TAttributeRules | null;
  /** Per-role overrides of `rules` (ignored when removing). */
  roles?: TRoleRules;
  store: TSharingRuleStore;
  audit: { kind: "application_access" | "tool_sharing"; partnerId: string; partnerName: string; edtechId: string };
}): Promise<void> {
  const { rules, store, audit } = options;
  const after = rules && { ...fromRules(rules), roleOverrides: fromRoleRules(rules, options.roles ?? {}) as Prisma.InputJsonObject };
  await transaction(async (tx) => {
    const before = await store.find(tx);
    if (after) await store.upsert(tx, after);
    else if (before) await store.remove(tx);
    else return;
    await recordAudit(tx, {
      actorPersonId: options.scope.personId,
      action: `${audit.kind}.${rules ? "set" : "delete"}`,
      targetType: audit.kind,
      targetId: audit.partnerId,
      edtechId: audit.edtechId,
      institutionId: options.institutionId,
      // The partner's name is kept so the history still names it after the partner is deleted.
      details: {
        partnerName: audit.partnerName,
        before: before ? auditedRule(before) : null,
        after: after ? auditedRule(after) : null,
      },
    });
  });
}
