import { hkdfSync, randomUUID } from "node:crypto";
import { EncryptJWT, jwtDecrypt } from "jose";
import type { NextResponse } from "next/server";
import type { JWT } from "next-auth/jwt";
import { env } from "@/lib/env";
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
// depends only on the secret, so it is derived once per secret of the ring (docs/decisions/021),
// and imported once as a CryptoKey, which jose would otherwise import again for every cookie.
const derivedKeys = new Map<string, Promise<CryptoKey>>();
function sessionKey(secret: string): Promise<CryptoKey> {
  let key = derivedKeys.get(secret);
  if (!key) {
    const raw = new Uint8Array(hkdfSync("sha256", secret, "", "NextAuth.js Generated Encryption Key", 32));
    key = crypto.subtle.importKey("raw", raw, "AES-GCM", false, ["encrypt", "decrypt"]);
    derivedKeys.set(secret, key);
  }
  return key;
}

/** Seals the claims as next-auth's `encode` does: dir + A256GCM, iat, exp, a random jti. */
export async function sealSession(token: JWT): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new EncryptJWT(token)
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt(now)
    .setExpirationTime(now + SESSION_MAX_AGE_S)
    .setJti(randomUUID())
    .encrypt(await sessionKey(hubSecret()));
}

/**
 * The session's claims, or null when the cookie is absent, tampered with or expired. A cookie
 * sealed with a secret HUB_SECRET replaced (HUB_PREVIOUS_SECRETS) still opens: rotating the
 * secret signs nobody out; the next write seals it with the current one.
 */
export async function openSession(value: string | undefined): Promise<JWT | null> {
  if (!value) return null;
  for (const secret of hubSecretRing()) {
    const token = await jwtDecrypt(value, await sessionKey(secret), { clockTolerance: CLOCK_TOLERANCE_S }).then(
      ({ payload }) => payload as JWT,
      () => null,
    );
    if (token) return token;
  }
  return null;
}

/** Sets the session cookie to `token` on `response`, or clears it when `token` is null. */
export async function writeSession(response: NextResponse, token: JWT | null): Promise<NextResponse> {
  const { name, options } = sessionCookie();
  if (token) response.cookies.set(name, await sealSession(token), options);
  else response.cookies.set(name, "", { ...options, maxAge: 0 });
  return response;
}

/** The claims of the request's session cookie (a route handler's Request, or a plain endpoint's), or null. */
export function readSession(request: Request | Pick<TPlainRequest, "cookie">): Promise<JWT | null> {
  const cookies = request instanceof Request ? fromWebRequest(request) : request;
  return openSession(cookies.cookie(sessionCookie().name));
}
