import { getServerSession, type Session } from "next-auth";
import { redirect } from "next/navigation";
import { cache } from "react";
import { authOptions } from "@/lib/server/auth/auth-options";
import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
import { database } from "@/lib/server/db/database";
import type { InstitutionKind, Role } from "@/lib/generated/prisma/client";
import type { TPlainRequest } from "@/lib/server/http/plain-endpoint";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { readSession } from "./session-cookie";

export interface CurrentUser {
  personId: string;
  name: string;
  profile: { id: string; role: Role; institution: { id: string; name: string; kind: InstitutionKind } } | null;
}

/** The request's session, decoded once per request. */
const getSession = cache((): Promise<Session | null> => getServerSession(authOptions()));

// The person and, when the session chose one of theirs, the profile with its institution: one
// prepared statement on every signed-in request (docs/decisions/021).
const USER_SQL = `
SELECT pe.id AS "personId", pe.name,
       CASE WHEN pr.id IS NULL THEN NULL
            ELSE json_build_object('id', pr.id, 'role', pr.role, 'institution', json_build_object('id', i.id, 'name', i.name, 'kind', i.kind)) END AS profile
  FROM "Person" pe
  LEFT JOIN "Profile" pr ON pr.id = $2::uuid AND pr."personId" = pe.id
  LEFT JOIN "Institution" i ON i.id = pr."institutionId"
 WHERE pe.id = $1::uuid`;

/** The person and chosen profile a session names, re-read from the database. */
async function loadUser(personId: string, profileId: string | null | undefined): Promise<CurrentUser | null> {
  if (!isUuidText(personId)) return null;
  const [user] = await database().sql.query<CurrentUser>(USER_SQL, [personId, profileId && isUuidText(profileId) ? profileId : null], { prepared: true });
  return user ?? null;
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
export async function getRequestUser(request: Request | Pick<TPlainRequest, "cookie">): Promise<CurrentUser | null> {
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
