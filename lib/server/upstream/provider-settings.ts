import type { TProviderKind, TLinkRule } from "@/lib/upstream/presets";
import { asLinkRule } from "./provider-row";

/**
 * A provider's settings as the rule history shows them before and after a change: never its
 * secret. A type alias, not an interface, so it is an audit detail's JSON as it is.
 */
export type TProviderSettings = {
  kind: TProviderKind;
  name: string;
  issuer: string;
  tenantId: string | null;
  clientId: string;
  allowedDomains: string[];
  linkRule: TLinkRule;
  enabled: boolean;
};

/** The settings of a stored provider row (its link rule column read as the type says). */
export function settingsOf(row: Omit<TProviderSettings, "linkRule"> & { linkRule: string }): TProviderSettings {
  return {
    kind: row.kind,
    name: row.name,
    issuer: row.issuer,
    tenantId: row.tenantId,
    clientId: row.clientId,
    allowedDomains: row.allowedDomains,
    linkRule: asLinkRule(row.linkRule),
    enabled: row.enabled,
  };
}
