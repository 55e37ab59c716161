// What the hub must remember between sending a browser to its provider and its return: the
// state, the nonce, the PKCE verifier, the provider and where to go next. Sealed (AES-256-GCM,
// secret-box) in a cookie of the browser that started, so the callback is bound to that browser
// (a callback URL opened elsewhere has no cookie to match), no table grows per attempt, and every
// instance can finish what another started. Single use is recorded at the callback (rememberNonce).
import { z } from "zod";
import { env } from "@/lib/env";
import { decryptSecret, encryptSecret } from "@/lib/server/crypto/secret-box";

const PURPOSE = "upstream-pending-sign-in";
/** Long enough for a password and a second factor at the provider, short enough to be a single attempt. */
export const PENDING_MAX_AGE_S = 600;
/** The one path the browser sends it to: the callback. */
export const PENDING_COOKIE_PATH = "/entrar/retorno";

export const ZPendingSignIn = z.object({
  state: z.string().min(32),
  nonce: z.string().min(32),
  verifier: z.string().min(43),
  providerId: z.uuid(),
  callbackUrl: z.string(),
  expiresAt: z.number(),
  /** Set when a signed-in person asked to link this provider's account ("Meus dados"): that person's id. */
  linkFor: z.uuid().optional(),
});
export type TPendingSignIn = z.infer<typeof ZPendingSignIn>;

export function pendingCookie(): { name: string; options: { httpOnly: true; sameSite: "lax"; path: string; secure: boolean; maxAge: number } } {
  const secure = env().HUB_BASE_URL.startsWith("https://");
  // SameSite=Lax: the provider sends the browser back with a top-level GET, which Lax cookies follow.
  return { name: "hub-upstream", options: { httpOnly: true, sameSite: "lax", path: PENDING_COOKIE_PATH, secure, maxAge: PENDING_MAX_AGE_S } };
}

export function sealPending(pending: TPendingSignIn): string {
  return encryptSecret(JSON.stringify(pending), PURPOSE);
}

/** The pending sign-in in the cookie, or null when it is absent, tampered with, sealed for another purpose or expired. */
export function openPending(value: string | undefined, now = Date.now()): TPendingSignIn | null {
  if (!value) return null;
  try {
    const parsed = ZPendingSignIn.safeParse(JSON.parse(decryptSecret(value, PURPOSE)));
    return parsed.success && parsed.data.expiresAt > now ? parsed.data : null;
  } catch {
    return null;
  }
}
