import type { JWT } from "next-auth/jwt";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { cache } from "react";
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

/**
 * The request's session cookie, opened once per request as the route handlers open it
 * (readSession): the same claims next-auth's getServerSession gives (its decode is openSession,
 * auth-options.ts), without the rest of its session handler, which also made a CSRF token and
 * sealed a renewed cookie that a page cannot send (0.4 ms of a gallery's CPU, thrown away).
 */
const getSession = cache(async (): Promise<JWT | null> => {
  const store = await cookies();
  return readSession({ cookie: (name) => store.get(name)?.value });
});

// The person and, when the session chose one of theirs, the profile with its institution: one
// prepared statement on every signed-in request (docs/decisions/021). Aliases: the person `up`,
// the chosen profile `upr` (null when none), its institution `ui`.
const USER_COLUMNS = `up.id AS "personId", up.name,
       CASE WHEN upr.id IS NULL THEN NULL
            ELSE json_build_object('id', upr.id, 'role', upr.role, 'institution', json_build_object('id', ui.id, 'name', ui.name, 'kind', ui.kind)) END AS profile`;
const USER_FROM = `
  FROM "Person" up
  LEFT JOIN "Profile" upr ON upr.id = $2::uuid AND upr."personId" = up.id
  LEFT JOIN "Institution" ui ON ui.id = upr."institutionId"
 WHERE up.id = $1::uuid`;
const USER_SQL = `SELECT ${USER_COLUMNS}${USER_FROM}`;

/**
 * USER_SQL with more columns computed from `up` and `upr`, so a caller reads what the user's
 * profile may see in the same round trip: the launch page's placement (read-launch.ts).
 */
export function userSqlWith(columns: string): string {
  return `SELECT ${USER_COLUMNS},\n       ${columns}${USER_FROM}`;
}

/** USER_SQL's parameters for a session's person and profile, or null when it names no person. */
export function userParams(session: Pick<JWT, "sub" | "profileId"> | null): [string, string | null] | null {
  const personId = session?.sub;
  if (!personId || !isUuidText(personId)) return null;
  const profileId = session.profileId;
  return [personId, profileId && isUuidText(profileId) ? profileId : null];
}

/** The person and chosen profile a session names, re-read from the database. */
async function loadUser(session: Pick<JWT, "sub" | "profileId"> | null): Promise<CurrentUser | null> {
  const params = userParams(session);
  if (!params) return null;
  const [user] = await database().sql.query<CurrentUser>(USER_SQL, params, { prepared: true });
  return user ?? null;
}

/**
 * The signed-in person and chosen profile, re-read from the database on every request, once: the
 * layout's header and the page read the same answer.
 */
export const getCurrentUser = cache(async (): Promise<CurrentUser | null> => loadUser(await getSession()));

/**
 * The same, for a route handler from its request's cookie alone (no Next request context): the
 * routes server.mjs serves without Next's router (lib/server/http/hot-routes.ts) use this.
 */
export async function getRequestUser(request: Request | Pick<TPlainRequest, "cookie">): Promise<CurrentUser | null> {
  return loadUser(await readSession(request));
}

/** For pages: signed-in user with a chosen profile, or a redirect to sign in / pick one. */
export async function requireProfile(returnTo: string): Promise<CurrentUser & { profile: NonNullable<CurrentUser["profile"]> }> {
  const user = await getCurrentUser();
  if (!user) redirect(withCallbackUrl("/login", returnTo));
  if (!user.profile) redirect(withCallbackUrl("/perfil", returnTo));
  return { ...user, profile: user.profile };
}
