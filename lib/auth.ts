import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { db } from "@/lib/db";
import { env } from "@/lib/env";
import { authenticatePerson } from "@/lib/server/auth/authenticate-person";
import { listProfiles } from "@/lib/server/auth/list-profiles";
import { hubSecret } from "@/lib/server/crypto/hub-secret";

process.env.NEXTAUTH_URL ??= env().HUB_BASE_URL;

function clientIp(headers: Record<string, unknown> | undefined): string {
  const forwarded = headers?.["x-forwarded-for"];
  const first = typeof forwarded === "string" ? forwarded.split(",")[0]?.trim() : undefined;
  return first || "local";
}

export const SIGN_IN_ERRORS: Record<string, string> = {
  CredentialsSignin: "E-mail/CPF ou senha incorretos.",
  TooManyAttempts: "Muitas tentativas sem sucesso. Aguarde 15 minutos e tente novamente.",
};

export function authOptions(): NextAuthOptions {
  return {
    secret: hubSecret(),
    session: { strategy: "jwt", maxAge: 8 * 60 * 60 },
    pages: { signIn: "/login", error: "/login" },
    providers: [
      CredentialsProvider({
        name: "Hub",
        credentials: { login: { label: "E-mail ou CPF", type: "text" }, password: { label: "Senha", type: "password" } },
        async authorize(credentials, req) {
          const login = credentials?.login?.slice(0, 254) ?? "";
          const password = credentials?.password?.slice(0, 200) ?? "";
          if (!login || !password) return null;
          const result = await authenticatePerson({ login, password, ip: clientIp(req.headers) });
          if (result.ok) return { id: result.person.id, name: result.person.name, email: result.person.email };
          if (result.reason === "too_many_attempts") throw new Error("TooManyAttempts");
          return null;
        },
      }),
    ],
    callbacks: {
      async jwt({ token, user, trigger, session }) {
        if (user) {
          const profiles = await listProfiles({ personId: user.id });
          token.profileId = profiles.length === 1 ? profiles[0]!.id : null;
        }
        // Switching profile: accepted only for a profile of the signed-in person.
        const requested = (session as { profileId?: unknown } | undefined)?.profileId;
        if (trigger === "update" && typeof requested === "string" && token.sub) {
          const owned = await db().profile.findFirst({ where: { id: requested, personId: token.sub }, select: { id: true } });
          if (owned) token.profileId = owned.id;
        }
        return token;
      },
      session({ session, token }) {
        session.personId = token.sub ?? "";
        session.profileId = token.profileId ?? null;
        return session;
      },
    },
  };
}
