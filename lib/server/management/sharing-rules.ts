// A partner's sharing rule as /gestao shows and edits it, for applications and tools alike: one
// choice per personal attribute (permitido, anonimizado, nao_compartilhado), stored as the
// allowed/anonymized arrays every channel reads (lib/server/privacy/resolve-sharing-rule.ts).
import { db } from "@/lib/db";
import { PERSONAL_ATTRIBUTES, type TPersonalAttribute } from "@/lib/validations/data-api";
import type { TAttributeRule } from "@/lib/validations/management";
import { listAncestors, type TAncestor } from "./list-ancestors";

export type TAttributeRules = Record<TPersonalAttribute, TAttributeRule>;

/** allowed/anonymized arrays → one rule per attribute (unknown names in old rows are ignored). */
export function toRules(allowed: string[], anonymized: string[]): TAttributeRules {
  return Object.fromEntries(
    PERSONAL_ATTRIBUTES.map((a) => [a, !allowed.includes(a) ? "nao_compartilhado" : anonymized.includes(a) ? "anonimizado" : "permitido"]),
  ) as TAttributeRules;
}

/** One rule per attribute → the stored arrays (the inverse of toRules). */
export function fromRules(rules: TAttributeRules): { allowedAttributes: TPersonalAttribute[]; anonymizedAttributes: TPersonalAttribute[] } {
  return {
    allowedAttributes: PERSONAL_ATTRIBUTES.filter((a) => rules[a] !== "nao_compartilhado"),
    anonymizedAttributes: PERSONAL_ATTRIBUTES.filter((a) => rules[a] === "anonimizado"),
  };
}

/** The institution and its ancestors (nearest first) and the edtechs with a contract anywhere on that chain. */
export async function linkedEdtechsUp(institutionId: string): Promise<{ chain: TAncestor[]; edtechIds: string[] }> {
  const chain = await listAncestors({ institutionId });
  const links = await db().edtechLink.findMany({ where: { institutionId: { in: chain.map((c) => c.id) } }, select: { edtechId: true } });
  return { chain, edtechIds: [...new Set(links.map((l) => l.edtechId))] };
}

export interface TRuleState {
  /** The institution's own rule, or null when it has none. */
  own: TAttributeRules | null;
  /** The nearest ancestor's rule, which applies when there is no own one. */
  inherited: { institutionId: string; institutionName: string; rules: TAttributeRules } | null;
  ownUpdatedAt: Date | null;
}

/** A partner's rule at `chain[0]`, from its rule rows on the chain (ApplicationAccess or ToolSharing). */
export function ruleStateAt(
  chain: readonly TAncestor[],
  rows: readonly { institutionId: string; allowedAttributes: string[]; anonymizedAttributes: string[]; updatedAt: Date }[],
): TRuleState {
  const [here, ...above] = chain;
  const own = rows.find((r) => r.institutionId === here?.id) ?? null;
  const nearest = above.map((c) => ({ c, row: rows.find((r) => r.institutionId === c.id) })).find((x) => x.row);
  return {
    own: own ? toRules(own.allowedAttributes, own.anonymizedAttributes) : null,
    inherited: nearest?.row
      ? { institutionId: nearest.c.id, institutionName: nearest.c.name, rules: toRules(nearest.row.allowedAttributes, nearest.row.anonymizedAttributes) }
      : null,
    ownUpdatedAt: own?.updatedAt ?? null,
  };
}
