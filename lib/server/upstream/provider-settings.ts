import type { TProviderKind, TLinkRule } from "@/lib/upstream/presets";

/** A provider's settings as the rule history shows them before and after a change: never its secret. */
export interface TProviderSettings {
  kind: TProviderKind;
  name: string;
  issuer: string;
  tenantId: string | null;
  clientId: string;
  allowedDomains: string[];
  linkRule: TLinkRule;
  enabled: boolean;
}

export function settingsOf(row: TProviderSettings): TProviderSettings {
  return {
    kind: row.kind,
    name: row.name,
    issuer: row.issuer,
    tenantId: row.tenantId,
    clientId: row.clientId,
    allowedDomains: row.allowedDomains,
    linkRule: row.linkRule,
    enabled: row.enabled,
  };
}
