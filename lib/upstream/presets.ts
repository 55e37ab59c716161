// The upstream identity providers a network can sign its people in with (issue #42). Pure: the
// gestão form, the login page and the relying party read the same table.

export const PROVIDER_KINDS = ["google", "microsoft", "govbr", "oidc"] as const;
export type TProviderKind = (typeof PROVIDER_KINDS)[number];

export const LINK_RULES = ["email", "cpf"] as const;
export type TLinkRule = (typeof LINK_RULES)[number];

export interface TProviderPreset {
  /** The provider's name on buttons and pages. */
  label: string;
  /** The issuer a network usually types; Microsoft's depends on the tenant. */
  defaultIssuer: (tenantId: string) => string;
  /** The link rule the preset imposes, or null when the manager chooses (generic OpenID Connect). */
  linkRule: TLinkRule | null;
  /** Scopes asked at the authorization endpoint. */
  scope: string;
}

export const PROVIDER_PRESETS: Record<TProviderKind, TProviderPreset> = {
  // Google Workspace: `hd` names the Workspace domain; accounts outside one (gmail.com) have none.
  google: { label: "Google", defaultIssuer: () => "https://accounts.google.com", linkRule: "email", scope: "openid email profile" },
  // Microsoft Entra ID, single tenant: the v2.0 issuer carries the tenant id, and so does `tid`.
  microsoft: {
    label: "Microsoft",
    defaultIssuer: (tenantId) => `https://login.microsoftonline.com/${tenantId || "{tenant}"}/v2.0`,
    linkRule: "email",
    scope: "openid email profile",
  },
  // gov.br (Login Único): the id token's `sub` is the citizen's CPF.
  govbr: { label: "gov.br", defaultIssuer: () => "https://sso.acesso.gov.br", linkRule: "cpf", scope: "openid email profile" },
  oidc: { label: "OpenID Connect", defaultIssuer: () => "", linkRule: null, scope: "openid email profile" },
};

/** The domain of an e-mail address, lowercased, or null when it is not one. */
export function emailDomain(email: string): string | null {
  const at = email.lastIndexOf("@");
  if (at < 1 || at === email.length - 1) return null;
  const domain = email.slice(at + 1).trim().toLowerCase();
  return /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/.test(domain) ? domain : null;
}
