import type { NextAuthOptions } from "next-auth";
import { env } from "@/lib/env";
import { openSession, SESSION_MAX_AGE_S } from "@/lib/server/auth/session-cookie";
import { safeCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { hubSecret } from "@/lib/server/crypto/hub-secret";

/**
 * next-auth reads the session cookie (getServerSession, /api/auth/session). The cookie is written
 * by the hub's own form posts (/entrar, /perfil/escolher, /sair: plain HTML forms that work
 * without JavaScript), so next-auth needs no provider of its own.
 */
export function authOptions(): NextAuthOptions {
  env(); // next-auth's own NEXTAUTH_URL is set there, from HUB_BASE_URL
  return {
    secret: hubSecret(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_S },
    // Reads a cookie sealed with any secret of the key ring (written with the current one).
    jwt: { decode: ({ token }) => openSession(token) },
    pages: { signIn: "/login", error: "/login" },
    providers: [],
    callbacks: {
      session({ session, token }) {
        session.personId = token.sub ?? "";
        session.profileId = token.profileId ?? null;
        return session;
      },
      // next-auth's default parses a relative callbackUrl with `new URL` and answers 500 to one it
      // cannot parse (`?callbackUrl=x`); the hub's one rule decides instead, and never throws.
      redirect({ url, baseUrl }) {
        // `url` comes from the request (a query or a JSON body's callbackUrl): not always a string.
        const value: unknown = url;
        if (typeof value !== "string") return `${baseUrl}/`;
        const path = value.startsWith(`${baseUrl}/`) ? value.slice(baseUrl.length) : value;
        return `${baseUrl}${safeCallbackUrl(path)}`;
      },
    },
  };
}
