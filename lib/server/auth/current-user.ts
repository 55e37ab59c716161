import { getServerSession, type Session } from "next-auth";
import { redirect } from "next/navigation";
import type { NextRequest } from "next/server";
import { cache } from "react";
import { authOptions } from "@/lib/auth";
import { db } from "@/lib/db";
import type { InstitutionKind, Role } from "@/lib/generated/prisma/client";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { readSession } from "./session-cookie";

export interface CurrentUser {
  personId: string;
  name: string;
  profile: { id: string; role: Role; institution: { id: string; name: string; kind: InstitutionKind } } | null;
}

/** The request's session, decoded once per request. */
const getSession = cache((): Promise<Session | null> => getServerSession(authOptions()));

/** The person and chosen profile a session names, re-read from the database (one query with a profile). */
async function loadUser(personId: string, profileId: string | null | undefined): Promise<CurrentUser | null> {
  if (!personId) return null;
  if (profileId) {
    const profile = await db().profile.findFirst({
      where: { id: profileId, personId },
      select: { id: true, role: true, institution: { select: { id: true, name: true, kind: true } }, person: { select: { name: true } } },
    });
    if (profile) {
      const { person, ...rest } = profile;
      return { personId, name: person.name, profile: rest };
    }
  }
  const person = await db().person.findUnique({ where: { id: personId }, select: { id: true, name: true } });
  return person && { personId: person.id, name: person.name, profile: null };
}

/** The signed-in person and chosen profile, re-read from the database on every request. */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  const session = await getSession();
  return session?.personId ? loadUser(session.personId, session.profileId) : null;
}

/**
 * The same, for a route handler from its request's cookie alone (no Next request context): the
 * routes server.mjs serves without Next's router (lib/server/http/hot-routes.ts) use this.
 */
export async function getRequestUser(request: NextRequest): Promise<CurrentUser | null> {
  const token = await readSession(request);
  return token?.sub ? loadUser(token.sub, token.profileId) : null;
}

/** For pages: signed-in user with a chosen profile, or a redirect to sign in / pick one. */
export async function requireProfile(returnTo: string): Promise<CurrentUser & { profile: NonNullable<CurrentUser["profile"]> }> {
  const user = await getCurrentUser();
  if (!user) redirect(withCallbackUrl("/login", returnTo));
  if (!user.profile) redirect(withCallbackUrl("/perfil", returnTo));
  return { ...user, profile: user.profile };
}
