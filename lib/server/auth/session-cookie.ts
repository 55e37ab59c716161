import { createSecretKey, hkdfSync, randomUUID, type KeyObject } from "node:crypto";
import { EncryptJWT } from "jose";
import { stringifyCookie, type ResponseCookie } from "next/dist/compiled/@edge-runtime/cookies";
import type { NextResponse } from "next/server";
import type { JWT } from "next-auth/jwt";
import { env } from "@/lib/env";
import { openDirectGcmCompact } from "@/lib/oauth/jose-compact";
import { hubSecret, hubSecretRing } from "@/lib/server/crypto/hub-secret";
import { fromWebRequest, type TPlainRequest } from "@/lib/server/http/plain-endpoint";

/** How long a sign-in lasts; next-auth's session options use the same figure. */
export const SESSION_MAX_AGE_S = 8 * 60 * 60;

/**
 * The session cookie as next-auth names and seals it (an A256GCM JWT), so getServerSession reads
 * what the hub's own sign-in and profile forms write. `__Secure-` only when the hub is served
 * over HTTPS, as next-auth decides from NEXTAUTH_URL (set from HUB_BASE_URL in lib/auth.ts).
 */
export function sessionCookie(): { name: string; options: { httpOnly: true; sameSite: "lax"; path: "/"; secure: boolean; maxAge: number } } {
  const secure = env().HUB_BASE_URL.startsWith("https://");
  return {
    name: `${secure ? "__Secure-" : ""}next-auth.session-token`,
    options: { httpOnly: true, sameSite: "lax", path: "/", secure, maxAge: SESSION_MAX_AGE_S },
  };
}

/** next-auth's clock tolerance when it opens a session (next-auth/jwt `decode`). */
const CLOCK_TOLERANCE_S = 15;

// next-auth derives the cookie's A256GCM key from the secret with HKDF on every call; the key
// depends only on the secret, so it is derived once per secret of the ring (docs/decisions/021):
// as a KeyObject to open cookies with node:crypto (docs/decisions/035), and as a CryptoKey for
// jose to seal them, which it would otherwise import again for every cookie.
const derivedKeys = new Map<string, { open: KeyObject; seal: Promise<CryptoKey> }>();
function sessionKey(secret: string): { open: KeyObject; seal: Promise<CryptoKey> } {
  let key = derivedKeys.get(secret);
  if (!key) {
    const raw = new Uint8Array(hkdfSync("sha256", secret, "", "NextAuth.js Generated Encryption Key", 32));
    key = { open: createSecretKey(raw), seal: crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]) };
    derivedKeys.set(secret, key);
  }
  return key;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The claims of a session JWT, checked as jose's jwtDecrypt checks them for next-auth: a JSON
 * object in well-formed UTF-8 whose exp, nbf and iat, when present, are numbers, neither expired
 * nor not yet valid (RFC 7519 §4.1.4–4.1.6), with next-auth's clock tolerance.
 */
function sessionClaims(plaintext: Buffer, nowSeconds: number): JWT | null {
  let claims: unknown;
  try {
    claims = JSON.parse(UTF8.decode(plaintext));
  } catch {
    return null;
  }
  if (typeof claims !== "object" || claims === null || Array.isArray(claims)) return null;
  const { exp, nbf, iat } = claims as Record<string, unknown>;
  for (const time of [exp, nbf, iat]) if (time !== undefined && (typeof time !== "number" || !Number.isFinite(time))) return null;
  if (typeof exp === "number" && exp <= nowSeconds - CLOCK_TOLERANCE_S) return null;
  if (typeof nbf === "number" && nbf > nowSeconds + CLOCK_TOLERANCE_S) return null;
  return claims as JWT;
}

/** Seals the claims as next-auth's `encode` does: dir + A256GCM, iat, exp, a random jti. */
export async function sealSession(token: JWT): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new EncryptJWT(token)
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt(now)
    .setExpirationTime(now + SESSION_MAX_AGE_S)
    .setJti(randomUUID())
    .encrypt(await sessionKey(hubSecret()).seal);
}

/**
 * The session's claims, or null when the cookie is absent, tampered with or expired. A cookie
 * sealed with a secret HUB_SECRET replaced (HUB_PREVIOUS_SECRETS) still opens: rotating the
 * secret signs nobody out; the next write seals it with the current one.
 */
export async function openSession(value: string | undefined): Promise<JWT | null> {
  if (!value) return null;
  for (const secret of hubSecretRing()) {
    const plaintext = openDirectGcmCompact(value, sessionKey(secret).open);
    // Authentic under this secret: its claims decide, no other secret could open it too.
    if (plaintext) return sessionClaims(plaintext, Math.floor(Date.now() / 1000));
  }
  return null;
}

/** The session cookie set to `token`, or cleared when `token` is null. */
async function sessionCookieOf(token: JWT | null): Promise<ResponseCookie> {
  const { name, options } = sessionCookie();
  return token ? { name, value: await sealSession(token), ...options } : { name, value: "", ...options, maxAge: 0 };
}

/** The same as a Set-Cookie value, for an answer that is not a NextResponse (a plain endpoint's). */
export async function sessionSetCookie(token: JWT | null): Promise<string> {
  return stringifyCookie(await sessionCookieOf(token));
}

/** Sets the session cookie to `token` on `response`, or clears it when `token` is null. */
export async function writeSession(response: NextResponse, token: JWT | null): Promise<NextResponse> {
  response.cookies.set(await sessionCookieOf(token));
  return response;
}

/** The claims of the request's session cookie (a route handler's Request, or a plain endpoint's), or null. */
export function readSession(request: Request | Pick<TPlainRequest, "cookie">): Promise<JWT | null> {
  const cookies = request instanceof Request ? fromWebRequest(request) : request;
  return openSession(cookies.cookie(sessionCookie().name));
}
