// A partner's sharing rule as /gestao shows and edits it, for applications and tools alike: one
// choice per personal attribute (permitido, anonimizado, nao_compartilhado), stored as the
// allowed/anonymized arrays every channel reads (lib/server/privacy/resolve-sharing-rule.ts), plus
// per-role overrides of the same shape (roleOverrides; docs/decisions/015-sharing-rules-per-role.md).
import { db } from "@/lib/server/db/database";
import type { Prisma } from "@/lib/generated/prisma/client";
import { parseRoleOverrides } from "@/lib/server/data-api/privacy";
import { PERSONAL_ATTRIBUTES, PROFILE_ROLES, type TPersonalAttribute, type TProfileRole } from "@/lib/validations/data-api";
import type { TAttributeRule } from "@/lib/validations/management";
import { nearestRule } from "@/lib/server/institution-tree/effective-access";
import { listAncestors, type TAncestor } from "@/lib/server/institution-tree/list-ancestors";

export type TAttributeRules = Record<TPersonalAttribute, TAttributeRule>;

/** Per-role overrides, one rule per attribute each; a role absent follows the base rules. */
export type TRoleRules = Partial<Record<TProfileRole, TAttributeRules>>;

/** The stored overrides, in the order of PROFILE_ROLES and without those equal to the base. */
export type TStoredRoleOverrides = Partial<Record<TProfileRole, { allowedAttributes: TPersonalAttribute[]; anonymizedAttributes: TPersonalAttribute[] }>>;

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

/** The stored roleOverrides JSON → one rule per attribute per overridden role. */
export function toRoleRules(roleOverrides: unknown): TRoleRules {
  const parsed = parseRoleOverrides(roleOverrides);
  return Object.fromEntries(
    PROFILE_ROLES.flatMap((role) => {
      const o = parsed[role];
      return o ? [[role, toRules(o.allowedAttributes, o.anonymizedAttributes)]] : [];
    }),
  );
}

/**
 * Per-role rules → the stored overrides. A role whose rules equal the base is dropped: it follows
 * the base, and changes with it.
 */
export function fromRoleRules(base: TAttributeRules, roles: TRoleRules): TStoredRoleOverrides {
  const same = (rules: TAttributeRules) => PERSONAL_ATTRIBUTES.every((a) => rules[a] === base[a]);
  return Object.fromEntries(
    PROFILE_ROLES.flatMap((role) => {
      const rules = roles[role];
      return rules && !same(rules) ? [[role, fromRules(rules)]] : [];
    }),
  );
}

/** The institution and its ancestors (nearest first), the contracts on that chain and the edtechs they are with. */
export async function linkedEdtechsUp(
  institutionId: string,
): Promise<{ chain: TAncestor[]; links: { institutionId: string; edtechId: string }[]; edtechIds: string[] }> {
  const chain = await listAncestors({ institutionId });
  const links = await db().edtechLink.findMany({ where: { institutionId: { in: chain.map((c) => c.id) } }, select: { institutionId: true, edtechId: true } });
  return { chain, links, edtechIds: [...new Set(links.map((l) => l.edtechId))] };
}

export interface TRuleState {
  /** The institution's own rule, or null when it has none. */
  own: TAttributeRules | null;
  /** The own rule's per-role overrides (empty without an own rule). */
  ownRoles: TRoleRules;
  /** Whether the own rule turns OneRoster 1.2 on (false without an own rule, and for tools). */
  ownOneRoster: boolean;
  /** The nearest ancestor's rule, which applies when there is no own one. */
  inherited: { institutionId: string; institutionName: string; rules: TAttributeRules; roles: TRoleRules; oneRoster: boolean } | null;
  ownUpdatedAt: Date | null;
}

/** A partner's rule at `chain[0]`, from its rule rows on the chain (ApplicationAccess or ToolSharing). */
export function ruleStateAt(
  chain: readonly TAncestor[],
  rows: readonly { institutionId: string; allowedAttributes: string[]; anonymizedAttributes: string[]; roleOverrides: Prisma.JsonValue; oneRoster?: boolean; updatedAt: Date }[],
): TRuleState {
  const [here, ...above] = chain;
  const own = rows.find((r) => r.institutionId === here?.id) ?? null;
  const nearest = nearestRule(above.map((c) => ({ c, rule: rows.find((r) => r.institutionId === c.id) ?? null })));
  return {
    own: own ? toRules(own.allowedAttributes, own.anonymizedAttributes) : null,
    ownRoles: own ? toRoleRules(own.roleOverrides) : {},
    ownOneRoster: own?.oneRoster === true,
    inherited: nearest?.rule
      ? {
          institutionId: nearest.c.id,
          institutionName: nearest.c.name,
          rules: toRules(nearest.rule.allowedAttributes, nearest.rule.anonymizedAttributes),
          roles: toRoleRules(nearest.rule.roleOverrides),
          oneRoster: nearest.rule.oneRoster === true,
        }
      : null,
    ownUpdatedAt: own?.updatedAt ?? null,
  };
}
