// The one access rule of the hub (docs/decisions/012-one-sharing-rule.md): whether a partner (an
// OAuth application or an LTI tool) may receive an institution's data, and whose rule row applies.
// Every channel decides with it: sign-in and user info, launches, the Data API, the home page's
// application cards and the management pages.
//
// Walking up from the institution (chain[0]) through its ancestors:
//   - the partner's edtech must have an EdtechLink somewhere on the chain (the contract). Without
//     one the partner gets nothing;
//   - the nearest rule row (ApplicationAccess for an application, ToolSharing for a tool) gives the
//     attributes. Without any, an application is not enabled (the manager enables it by choosing
//     its rules); a tool is enabled by its placement, with no personal attribute.

export type TPartnerKind = "application" | "tool";

/** One institution of the chain as the rule sees it, for one partner. */
export interface TAccessLevel<R> {
  /** The partner's edtech has an EdtechLink at this institution. */
  linked: boolean;
  /** The partner's rule row at this institution, if any. */
  rule: R | null;
}

export type TEffectiveAccess<L> = (
  | { enabled: true }
  | { enabled: false; reason: "no_contract" | "not_enabled" }
) & {
  /** The nearest level with a rule row: the rule that applies (whether or not the partner is enabled). */
  ruleLevel: L | null;
};

/** The nearest level of a chain (nearest first) with a rule row: the rule that applies there. */
export function nearestRule<L extends { rule: unknown }>(chain: readonly L[]): L | null {
  return chain.find((level) => level.rule !== null && level.rule !== undefined) ?? null;
}

/** The rule over a chain ordered nearest first (the institution, its parent, ...). */
export function effectiveAccess<R, L extends TAccessLevel<R>>(chain: readonly L[], kind: TPartnerKind): TEffectiveAccess<L> {
  const ruleLevel = nearestRule(chain);
  if (!chain.some((level) => level.linked)) return { enabled: false, reason: "no_contract", ruleLevel };
  if (!ruleLevel && kind === "application") return { enabled: false, reason: "not_enabled", ruleLevel };
  return { enabled: true, ruleLevel };
}
