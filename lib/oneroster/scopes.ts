// The OneRoster 1.2 Rostering scopes and the token endpoint's `scope` parameter (RFC 6749 §3.3).
// Pure: no framework, no database (docs/decisions/039-oneroster-token-endpoint.md).
//
// Source: OneRoster 1.2 Rostering Service REST/JSON binding (1EdTech, 2022), §"Scopes" and the
// OpenAPI document's securitySchemes.OAuth2CC.flows.clientCredentials.scopes. Rostering has three
// read scopes; the binding gives each endpoint the scopes that may read it: the core collections
// and their single objects accept roster-core.readonly or roster.readonly, the nested collections
// roster.readonly only, and demographics roster-demographics.readonly only (the OpenAPI's
// `security` of each operation; lib/server/oneroster/rostering-routes.ts).
import { OAuthError } from "@/lib/oauth/errors";

const PREFIX = "https://purl.imsglobal.org/spec/or/v1p2/scope/";

/** The three Rostering read scopes, by their full URIs (the only form a token carries). */
export const ONEROSTER_SCOPES = {
  /** The core rostering collections: orgs, schools, academic sessions, classes, courses, users, enrollments. */
  rosterCore: `${PREFIX}roster-core.readonly`,
  /** Every rostering read, the nested collections included; demographics excluded ("all of the read operations (excluding demographics)"). */
  roster: `${PREFIX}roster.readonly`,
  /** The demographics collection. */
  rosterDemographics: `${PREFIX}roster-demographics.readonly`,
} as const;

export type TOneRosterScope = (typeof ONEROSTER_SCOPES)[keyof typeof ONEROSTER_SCOPES];

/** Every scope, in the order tokens and documents list them. */
export const ALL_ONEROSTER_SCOPES: readonly TOneRosterScope[] = Object.freeze([
  ONEROSTER_SCOPES.rosterCore,
  ONEROSTER_SCOPES.roster,
  ONEROSTER_SCOPES.rosterDemographics,
]);

const KNOWN: ReadonlySet<string> = new Set(ALL_ONEROSTER_SCOPES);

export function isOneRosterScope(value: string): value is TOneRosterScope {
  return KNOWN.has(value);
}

/** RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ). */
const SCOPE_TOKEN = /^[\x21\x23-\x5B\x5D-\x7E]+$/;

/**
 * The scopes a token request asks for. No `scope` (absent or empty: RFC 6749 §3.1, a parameter
 * sent without a value is omitted) asks for all three, the hub's documented default (§3.3 lets
 * the server pick one). Any scope that is not one of the three is invalid_scope, named in the
 * description; a `scope` that is not a string (a repeated field, a JSON value) is invalid_request.
 * Tokens are separated by spaces; repeats collapse.
 */
export function parseScopeParameter(value: unknown): readonly TOneRosterScope[] | OAuthError {
  if (value === undefined || value === null || value === "") return ALL_ONEROSTER_SCOPES;
  if (typeof value !== "string") return new OAuthError("invalid_request", "scope must be one string of space-separated scopes");
  const asked = value.split(" ").filter((token) => token !== "");
  if (asked.length === 0) return ALL_ONEROSTER_SCOPES;
  for (const token of asked) {
    if (!SCOPE_TOKEN.test(token)) return new OAuthError("invalid_scope", "scope holds a character RFC 6749 does not allow");
    if (!isOneRosterScope(token)) return new OAuthError("invalid_scope", `Unknown scope: ${token.slice(0, 120)}`);
  }
  return ALL_ONEROSTER_SCOPES.filter((scope) => asked.includes(scope));
}

/**
 * What a token carries: the scopes asked for that the client is allowed (RFC 6749 §3.3 lets the
 * server grant fewer than asked, and then the response names them). Empty when none is allowed.
 */
export function grantScopes(asked: readonly TOneRosterScope[], allowed: readonly TOneRosterScope[]): TOneRosterScope[] {
  return ALL_ONEROSTER_SCOPES.filter((scope) => asked.includes(scope) && allowed.includes(scope));
}

/** The `scope` value of a token response and of the token's claim: space-separated. */
export function formatScopes(scopes: Iterable<TOneRosterScope>): string {
  return [...scopes].join(" ");
}

/** The OneRoster scopes of a token's `scope` claim; anything else in it is ignored. */
export function scopesOfClaim(claim: string): ReadonlySet<TOneRosterScope> {
  return new Set(claim.split(" ").filter(isOneRosterScope));
}
