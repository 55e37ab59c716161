import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
import { listSignInOptions, providerForEmail } from "./list-sign-in-options";

/** A school's own sign-in page (`/login?escola=…`) carries its id; anything else is no school. */
export function schoolOfSignInPage(value: string | string[] | null | undefined): string | null {
  const v = Array.isArray(value) ? value[0] : value;
  return v && isUuidText(v) ? v.toLowerCase() : null;
}

/** `escola` for a redirect back to the school's own sign-in page, when there was one. */
export function escolaParam(value: string | null | undefined): Record<string, string> {
  const school = schoolOfSignInPage(value);
  return school ? { escola: school } : {};
}

/** The path that starts an upstream sign-in with a provider, keeping where to go afterwards. */
export function upstreamStartPath(providerId: string, callbackUrl: string, loginHint?: string): string {
  const query = new URLSearchParams({ callbackUrl, ...(loginHint ? { login_hint: loginHint } : {}) });
  return `/entrar/com/${providerId}?${query}`;
}

/**
 * Home-realm discovery for the sign-in form: the upstream provider a typed e-mail belongs to
 * (among the school's networks' providers on its own page, every network's otherwise), or null.
 */
export async function findUpstreamForLogin(options: { login: string; institutionId: string | null }): Promise<{ startPath: (callbackUrl: string) => string } | null> {
  const email = options.login.trim().toLowerCase();
  if (!email.includes("@")) return null;
  const provider = providerForEmail(await listSignInOptions({ institutionId: schoolOfSignInPage(options.institutionId) }), email);
  return provider ? { startPath: (callbackUrl) => upstreamStartPath(provider.providerId, callbackUrl, email) } : null;
}
