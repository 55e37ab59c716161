// What an upstream id token's claims must say before they can point at a person of the network
// (issue #42, "Linking, never guessing"). The relying party (openid-client) has already checked
// the token itself: signature, alg, iss, aud, azp, exp, iat, nonce. These rules check what the
// account is: one rule per function, run in order, the first failure decides (node-oidc-provider's
// style). Pure and unit-tested beside this file.
import { isValidCpf } from "@/lib/validations/school-data";
import { emailDomain, type TLinkRule, type TProviderKind } from "./presets";

export interface TClaimsProvider {
  kind: TProviderKind;
  linkRule: TLinkRule;
  /** Lowercased domains; an e-mail (and Google's `hd`) must be in one of them. */
  allowedDomains: readonly string[];
  /** Microsoft Entra ID: the id token's `tid` must be this tenant. */
  tenantId: string | null;
}

/** How the account finds its person the first time. */
export type TLinkKey = { rule: "email"; email: string } | { rule: "cpf"; cpf: string };

export type TClaimsRefusal = "tenant_foreign" | "email_missing" | "email_unverified" | "domain_foreign" | "cpf_missing";

export type TClaimsResult = { ok: true; subject: string; key: TLinkKey; email: string | null } | { ok: false; reason: TClaimsRefusal };

type TClaims = Readonly<Record<string, unknown>>;
type TRule = (claims: TClaims, provider: TClaimsProvider) => TClaimsRefusal | null;

/** A boolean claim as providers send it: JSON true, or the string "true" some still do. */
const isTrue = (value: unknown): boolean => value === true || value === "true";

const textClaim = (claims: TClaims, name: string): string | null => {
  const value = claims[name];
  return typeof value === "string" && value.trim() ? value.trim() : null;
};

const emailOf = (claims: TClaims): string | null => textClaim(claims, "email")?.toLowerCase() ?? null;

/** Entra: an account of another tenant is never one of the network's, whatever its e-mail. */
const tenantIsTheNetworks: TRule = (claims, provider) =>
  provider.kind === "microsoft" && (provider.tenantId === null || textClaim(claims, "tid")?.toLowerCase() !== provider.tenantId.toLowerCase()) ? "tenant_foreign" : null;

const emailPresent: TRule = (claims, provider) => (provider.linkRule === "email" && !emailOf(claims) ? "email_missing" : null);

/**
 * OpenID Connect's `email_verified`; Entra says it with `xms_edov` (the e-mail's domain is
 * verified by the tenant's owner), an optional claim the app registration must ask for.
 */
const emailVerified: TRule = (claims, provider) => {
  if (provider.linkRule !== "email") return null;
  const verified = isTrue(claims.email_verified) || (provider.kind === "microsoft" && isTrue(claims.xms_edov));
  return verified ? null : "email_unverified";
};

const emailInAllowedDomain: TRule = (claims, provider) => {
  if (provider.linkRule !== "email") return null;
  const domain = emailDomain(emailOf(claims) ?? "");
  return domain && provider.allowedDomains.includes(domain) ? null : "domain_foreign";
};

/** Google: `hd` is set only for Workspace accounts, so a gmail.com address never passes. */
const googleWorkspaceDomain: TRule = (claims, provider) => {
  if (provider.kind !== "google") return null;
  const hd = textClaim(claims, "hd")?.toLowerCase();
  return hd && provider.allowedDomains.includes(hd) ? null : "domain_foreign";
};

/** gov.br's `sub` is the CPF; another provider may send it as `cpf`. */
const cpfOf = (claims: TClaims): string | null => {
  const raw = textClaim(claims, "cpf") ?? textClaim(claims, "sub");
  const digits = raw?.replace(/[.\-\s]/g, "") ?? "";
  return /^\d{11}$/.test(digits) && isValidCpf(digits) ? digits : null;
};

const cpfPresent: TRule = (claims, provider) => (provider.linkRule === "cpf" && !cpfOf(claims) ? "cpf_missing" : null);

/** The rules in the order they are checked; each test of check-claims.test.ts is named after one. */
export const CLAIM_RULES: ReadonlyArray<[name: string, rule: TRule]> = [
  ["tenantIsTheNetworks", tenantIsTheNetworks],
  ["emailPresent", emailPresent],
  ["emailVerified", emailVerified],
  ["emailInAllowedDomain", emailInAllowedDomain],
  ["googleWorkspaceDomain", googleWorkspaceDomain],
  ["cpfPresent", cpfPresent],
];

/** The account's subject and link key, or the first rule it breaks. */
export function checkClaims(claims: TClaims, provider: TClaimsProvider): TClaimsResult {
  const subject = textClaim(claims, "sub");
  // openid-client refuses an id token without `sub` (OpenID Connect Core §2): this only narrows the type.
  if (!subject) return { ok: false, reason: provider.linkRule === "cpf" ? "cpf_missing" : "email_missing" };
  for (const [, rule] of CLAIM_RULES) {
    const refusal = rule(claims, provider);
    if (refusal) return { ok: false, reason: refusal };
  }
  const email = emailOf(claims);
  const cpf = cpfOf(claims);
  if (provider.linkRule === "cpf") return cpf ? { ok: true, subject, key: { rule: "cpf", cpf }, email } : { ok: false, reason: "cpf_missing" };
  return email ? { ok: true, subject, key: { rule: "email", email }, email } : { ok: false, reason: "email_missing" };
}
