import type { NextRequest, NextResponse } from "next/server";
import { decode, encode, type JWT } from "next-auth/jwt";
import { env } from "@/lib/env";
import { hubSecret, hubSecretRing } from "@/lib/server/crypto/hub-secret";

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

export function sealSession(token: JWT): Promise<string> {
  return encode({ token, secret: hubSecret(), maxAge: SESSION_MAX_AGE_S });
}

/**
 * The session's claims, or null when the cookie is absent, tampered with or expired. A cookie
 * sealed with a secret HUB_SECRET replaced (HUB_PREVIOUS_SECRETS) still opens: rotating the
 * secret signs nobody out; the next write seals it with the current one.
 */
export async function openSession(value: string | undefined): Promise<JWT | null> {
  if (!value) return null;
  for (const secret of hubSecretRing()) {
    const token = await decode({ token: value, secret }).catch(() => null);
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

/** The claims of the request's session cookie, or null. */
export function readSession(request: NextRequest): Promise<JWT | null> {
  return openSession(request.cookies.get(sessionCookie().name)?.value);
}
