import { getServerSession, type Session } from "next-auth";
import { redirect } from "next/navigation";
import { cache } from "react";
import { authOptions } from "@/lib/server/auth/auth-options";
import { db } from "@/lib/server/db/database";
import type { InstitutionKind, Role } from "@/lib/generated/prisma/client";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";

export interface CurrentUser {
  personId: string;
  name: string;
  profile: { id: string; role: Role; institution: { id: string; name: string; kind: InstitutionKind } } | null;
}

/** The request's session, decoded once per request. */
const getSession = cache((): Promise<Session | null> => getServerSession(authOptions()));

/** The signed-in person and chosen profile, re-read from the database on every request. */
export async function getCurrentUser(): Promise<CurrentUser | null> {
  const session = await getSession();
  if (!session?.personId) return null;
  const person = await db().person.findUnique({ where: { id: session.personId }, select: { id: true, name: true } });
  if (!person) return null;
  const profile = session.profileId
    ? await db().profile.findFirst({
        where: { id: session.profileId, personId: person.id },
        select: { id: true, role: true, institution: { select: { id: true, name: true, kind: true } } },
      })
    : null;
  return { personId: person.id, name: person.name, profile };
}

/** For pages: signed-in user with a chosen profile, or a redirect to sign in / pick one. */
export async function requireProfile(returnTo: string): Promise<CurrentUser & { profile: NonNullable<CurrentUser["profile"]> }> {
  const user = await getCurrentUser();
  if (!user) redirect(withCallbackUrl("/login", returnTo));
  if (!user.profile) redirect(withCallbackUrl("/perfil", returnTo));
  return { ...user, profile: user.profile };
}
