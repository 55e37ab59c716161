// The OneRoster API's bearer check (OneRoster 1.2 REST binding, OAuth 2 bearer tokens per
// RFC 6750): the token /ims/oneroster/token issued (handle-oneroster-token-request.ts), for an
// application that still exists, and which scopes it carries. Whether OneRoster is still on at an
// institution is not checked here: the read side checks the rule per institution on every call.
//
// 401 `unauthorisedrequest` when there is no token, it is not `Bearer <jwt>`, or it is not one of
// ours for the OneRoster API (signature, RS256, typ at+jwt, issuer, expiry, audience, subject);
// 403 `forbidden` when it lacks the scope an endpoint needs (requireScope). A token issued for
// user info (aud = the client, sub = a person) never passes here, and a OneRoster token never
// passes user info (its jti is not recorded: get-user-info.ts, check 3).
import { OAuthError } from "@/lib/oauth/errors";
import { verifyAccessToken } from "@/lib/oauth/jwt";
import { formatScopes, scopesOfClaim, type TOneRosterScope } from "@/lib/oneroster/scopes";
import { OneRosterError } from "@/lib/oneroster/status";
import { ourTokenVerification } from "@/lib/server/oauth/signing-keys";
import { oneRosterAudience } from "./handle-oneroster-token-request";

/** What a verified token says: the application's client id and the scopes granted. */
export interface TOneRosterClient {
  clientId: string;
  scopes: ReadonlySet<TOneRosterScope>;
}

/** The realm of every OneRoster challenge (RFC 6750 §3). */
const REALM = "OneRoster";

/** What the WWW-Authenticate of an error made here says, beyond the realm (bearerChallenge). */
type TChallenge = { kind: "no_token" } | { kind: "invalid_token" } | { kind: "insufficient_scope"; scopes: readonly TOneRosterScope[] };
const challenges = new WeakMap<OneRosterError, TChallenge>();

function refusal(codeMinor: "unauthorisedrequest" | "forbidden", description: string, challenge: TChallenge): OneRosterError {
  const error = new OneRosterError(codeMinor, description);
  challenges.set(error, challenge);
  return error;
}

const unauthorised = (description: string) => refusal("unauthorisedrequest", description, { kind: "invalid_token" });

/** RFC 6750 §2.1: `Bearer` (any case, RFC 7235 §2.1) and one b64token. */
const BEARER = /^bearer[ \t]+([A-Za-z0-9\-._~+/]+=*)$/i;

/**
 * The client a OneRoster request's Authorization header names, or a 401 OneRosterError thrown. The
 * token alone is checked here, with no statement: whether its application still exists is read
 * with the application's reach (resolveOneRosterReach), which answers applicationGone() when not.
 */
export async function verifyOneRosterBearer(authorizationHeader: string | null): Promise<TOneRosterClient> {
  const header = authorizationHeader?.trim() ?? "";
  if (header === "") throw refusal("unauthorisedrequest", "No access token: send Authorization: Bearer <token> from /ims/oneroster/token.", { kind: "no_token" });
  const token = BEARER.exec(header)?.[1];
  if (token === undefined) throw unauthorised("The Authorization header must be Bearer <token>.");
  const now = new Date();
  const claims = await verifyAccessToken(token, ourTokenVerification(now));
  if (claims instanceof OAuthError) throw unauthorised(claims.description.includes("expired") ? "The access token expired." : "The access token is invalid.");
  // Only tokens issued for this API: user info's tokens have the client as audience and a person as subject.
  const audience = oneRosterAudience();
  const forUs = typeof claims.aud === "string" ? claims.aud === audience : claims.aud.length === 1 && claims.aud[0] === audience;
  if (!forUs || claims.sub !== claims.client_id) throw unauthorised("The access token was not issued for the OneRoster API.");
  return { clientId: claims.client_id, scopes: scopesOfClaim(claims.scope) };
}

/** The 401 for a token whose application was deleted after it was issued. */
export const applicationGone = () => unauthorised("The application of this access token no longer exists.");

/** Throws a 403 OneRosterError unless the token carries one of `anyOf` (the scopes the binding gives the endpoint). */
export function requireScope(client: TOneRosterClient, anyOf: readonly TOneRosterScope[]): void {
  if (anyOf.some((scope) => client.scopes.has(scope))) return;
  throw refusal("forbidden", `The access token lacks the scope this endpoint needs: one of ${formatScopes(anyOf)}.`, { kind: "insufficient_scope", scopes: anyOf });
}

/**
 * The WWW-Authenticate value for an error response (RFC 6750 §3): every 401 (with
 * `error="invalid_token"`, or no error when no token was sent, §3.1) and a 403 of requireScope
 * (`insufficient_scope` with the scopes that would do). Null for anything else.
 */
export function bearerChallenge(error: OneRosterError): string | null {
  const challenge = challenges.get(error);
  if (error.httpStatus === 401) {
    return challenge?.kind === "no_token" ? `Bearer realm="${REALM}"` : `Bearer realm="${REALM}", error="invalid_token"`;
  }
  if (error.httpStatus === 403 && challenge?.kind === "insufficient_scope") {
    return `Bearer realm="${REALM}", error="insufficient_scope", scope="${formatScopes(challenge.scopes)}"`;
  }
  return null;
}
