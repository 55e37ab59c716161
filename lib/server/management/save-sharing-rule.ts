import { db } from "@/lib/db";
import { recordAudit } from "@/lib/server/audit/record-audit";
import type { Tx } from "@/lib/server/db/transaction";
import type { TManagerScope } from "./resolve-manager-scope";
import { fromRules, type TAttributeRules } from "./sharing-rules";

interface TStoredRule {
  allowedAttributes: string[];
  anonymizedAttributes: string[];
}

/** Where one partner kind keeps its rule row (ApplicationAccess, ToolSharing). */
export interface TSharingRuleStore {
  find(tx: Tx): Promise<TStoredRule | null>;
  upsert(tx: Tx, rule: TStoredRule): Promise<unknown>;
  remove(tx: Tx): Promise<unknown>;
}

/**
 * Saves an institution's own sharing rule for one partner (an application or a tool), or with
 * `rules: null` removes it so the ancestors' rule applies again; audited in the same transaction
 * with the partner's name and the before and after values (the history, list-sharing-rule-changes).
 * The callers check reach and the edtech contract first: they differ per partner kind.
 */
export async function saveSharingRule(options: {
  scope: TManagerScope;
  institutionId: string;
  rules: TAttributeRules | null;
  store: TSharingRuleStore;
  audit: { kind: "application_access" | "tool_sharing"; partnerId: string; partnerName: string; edtechId: string };
}): Promise<void> {
  const { rules, store, audit } = options;
  const after = rules && fromRules(rules);
  await db().$transaction(async (tx) => {
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
        before: before ? { allowed: before.allowedAttributes, anonymized: before.anonymizedAttributes } : null,
        after: after ? { allowed: after.allowedAttributes, anonymized: after.anonymizedAttributes } : null,
      },
    });
  });
}
