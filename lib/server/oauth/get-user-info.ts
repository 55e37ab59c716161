// GET or POST /users/v1/users/info (docs/oauth.md, "User info"). Checks, in order:
//   1. `authorization` holds a token (bare or `Bearer`)                    → else 401 invalid_token
//   2. it is our RS256 access token (at+jwt) or id token (JWT), signature,
//      issuer and expiry valid; the contract lets both kinds read user info → else 401 invalid_token
//   3. its jti is recorded, not revoked, same client and profile (its sub is
//      the application's pairwise id of the recorded profile)               → else 401 invalid_token
//   4. the scope it was issued with includes user.info                      → else 403 insufficient_scope
//   5. `x-relationship-id`, when sent, is the token's profile (pairwise id)  → else 403 access_denied
//   6. the profile still exists and its institution still enables the app  → else 401 invalid_token
// The person's attributes are those the institution shares with the application, anonymized with
// the Data API's per-application pseudonyms, so both interfaces show one person the same way.
import { database } from "@/lib/server/db/database";
import type { InstitutionKind, Person, Role } from "@/lib/generated/prisma/client";
import { readBearerToken } from "@/lib/oauth/authorization-header";
import { OAuthError } from "@/lib/oauth/errors";
import { jwtType, verifyAccessToken, verifyIdToken } from "@/lib/oauth/jwt";
import { logAccess } from "@/lib/server/audit/log-access";
import { mediaType } from "@/lib/server/http/media-type";
import { recordFilter } from "@/lib/server/data-api/privacy";
import { personAttributes } from "@/lib/server/school-data/snapshots";
import type { TPersonalAttribute } from "@/lib/validations/data-api";
import { pairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { ruleRowsColumnSql, sharingRuleOf, type TRuleRow } from "@/lib/server/privacy/resolve-sharing-rule";
import { ourTokenVerification } from "./signing-keys";

export const USER_INFO_SCOPE = "user.info";

export interface TUserInfo {
  /** OIDC Core §5.3.2: the subject, the application's pairwise id of the profile (same as user_id). */
  sub: string;
  /** The profile's pairwise id: the `user_id` of the redirect, the `x-relationship-id` header, the Data API's usuario id. */
  user_id: string;
  /** Role of the profile: aluno, professor, responsavel or gestor. */
  perfil: Role;
  instituicao: { id: string; nome: string; tipo: InstitutionKind };
  /** Only the attributes the institution shares with the application; anonymized ones as pseudonyms. */
  usuario: Partial<Record<TPersonalAttribute, string | null>>;
  /** The same `configuracao` the Data API returns for this institution and application. */
  configuracao: { conjuntoDadosUsuario: { atributosPermitidos: TPersonalAttribute[]; atributosAnonimizados: TPersonalAttribute[] } };
}

const invalidToken = (description: string) => new OAuthError("invalid_token", description);

/** A POST to user info carries at most a token field; anything bigger is not one. */
export const MAX_USER_INFO_BODY_BYTES = 16 * 1024;

/**
 * The `authorization` value to check for a POST to user info: the header, or the form field
 * `access_token` (RFC 6750 §2.2), never both (§2: a client MUST NOT use more than one method).
 * `body` is null when it was over MAX_USER_INFO_BODY_BYTES.
 */
export function tokenFromPostBody(authorization: string | null, contentType: string | null, body: string | null): string | null | OAuthError {
  if (body === null) return new OAuthError("invalid_request", "The request body is too large");
  const isForm = mediaType(contentType) === "application/x-www-form-urlencoded";
  const fields = isForm ? new URLSearchParams(body).getAll("access_token") : [];
  if (fields.length > 1) return new OAuthError("invalid_request", "access_token is repeated");
  if (fields.length === 0) return authorization;
  if (authorization !== null) return new OAuthError("invalid_request", "Send the token in the authorization header or in the body, not both");
  return `Bearer ${fields[0]}`;
}

/** What user info relies on from either kind of token: who, for which client, which record. */
interface TPresentedToken {
  jti: string;
  sub: string;
  clientId: string;
}

/** An access token (typ at+jwt, RFC 9068) or one of our id tokens (typ JWT, aud = the client). */
async function verifySignedToken(token: string, now: Date): Promise<(TPresentedToken & { exp: number }) | OAuthError> {
  const options = ourTokenVerification(now);
  if (jwtType(token) === "JWT") {
    const claims = await verifyIdToken(token, options);
    if (claims instanceof OAuthError) return claims;
    // Id tokens issued before their jti was recorded cannot be checked for revocation.
    if (claims.jti === undefined) return invalidToken("The id token is invalid");
    return { jti: claims.jti, sub: claims.sub, clientId: claims.aud, exp: claims.exp };
  }
  const claims = await verifyAccessToken(token, options);
  if (claims instanceof OAuthError) return claims;
  return { jti: claims.jti, sub: claims.sub, clientId: claims.client_id, exp: claims.exp };
}

/**
 * Tokens whose signature this process verified, until they expire (docs/decisions/025): a JWT's
 * signature, issuer and claims never change, and a key stays published for as long as any token
 * it signed is unexpired, so the verification's answer for a given token string holds until its
 * `exp`. Everything that can change — revocation, the profile, the institution's rules — is read
 * from the database on every request, after this. Only tokens that verified are kept (a forged
 * one cannot fill the map), at most VERIFIED_TOKENS_MAX, the oldest forgotten first.
 */
const verifiedTokens = new Map<string, TPresentedToken & { exp: number }>();
const VERIFIED_TOKENS_MAX = 10_000;

async function verifyPresentedToken(token: string, now: Date): Promise<TPresentedToken | OAuthError> {
  const known = verifiedTokens.get(token);
  if (known && known.exp * 1000 > now.getTime()) return known;
  if (known) verifiedTokens.delete(token);
  const verified = await verifySignedToken(token, now);
  if (verified instanceof OAuthError) return verified;
  if (verifiedTokens.size >= VERIFIED_TOKENS_MAX) verifiedTokens.delete(verifiedTokens.keys().next().value!);
  verifiedTokens.set(token, verified);
  return verified;
}

interface TTokenRecord {
  profileId: string;
  scope: string;
  revokedAt: Date | null;
  expiresAt: Date;
  application: { id: string; clientId: string; edtechId: string };
  /** Null when the profile was deleted since the token was issued. */
  role: Role | null;
  institution: { id: string; name: string; kind: InstitutionKind } | null;
  person: Pick<Person, "name" | "birthDate" | "cpf" | "email" | "phone"> | null;
  /** The application's sharing rule rows at the profile's institution (the rule engine's sub-select). */
  ruleRows: TRuleRow[];
}

// The token's row with its application, profile, person, institution and the application's
// sharing rule rows there, in one prepared statement (docs/decisions/021). The birth date comes
// back as UTC midnight, as Prisma gives it.
const TOKEN_RECORD_SQL = `
SELECT t."profileId", t.scope, t."revokedAt", t."expiresAt",
       ${ruleRowsColumnSql("application", { institution: `pr."institutionId"`, edtech: `a."edtechId"`, partner: "a.id" })} AS "ruleRows",
       json_build_object('id', a.id, 'clientId', a."clientId", 'edtechId', a."edtechId") AS application,
       pr.role,
       CASE WHEN i.id IS NULL THEN NULL ELSE json_build_object('id', i.id, 'name', i.name, 'kind', i.kind) END AS institution,
       CASE WHEN pe.id IS NULL THEN NULL ELSE json_build_object('name', pe.name, 'cpf', pe.cpf, 'email', pe.email, 'phone', pe.phone) END AS person,
       pe."birthDate"::timestamp AT TIME ZONE 'UTC' AS "birthDate"
  FROM "AccessToken" t
  JOIN "OAuthApplication" a ON a.id = t."applicationId"
  LEFT JOIN "Profile" pr ON pr.id = t."profileId"
  LEFT JOIN "Person" pe ON pe.id = pr."personId"
  LEFT JOIN "Institution" i ON i.id = pr."institutionId"
 WHERE t.jti = $1`;

async function findTokenRecord(jti: string): Promise<TTokenRecord | null> {
  const [row] = await database().sql.query<Omit<TTokenRecord, "person"> & { person: Omit<Person, "birthDate"> | null; birthDate: Date | null }>(
    TOKEN_RECORD_SQL, [jti], { prepared: true },
  );
  if (!row) return null;
  const { birthDate, person, ...rest } = row;
  return { ...rest, person: person && { ...person, birthDate } };
}

export async function getUserInfo(options: {
  authorization: string | null;
  relationshipId: string | null;
  now?: Date;
}): Promise<TUserInfo | OAuthError> {
  const now = options.now ?? new Date();
  const token = readBearerToken(options.authorization);
  if (token instanceof OAuthError) return token;
  const claims = await verifyPresentedToken(token, now);
  if (claims instanceof OAuthError) return claims;

  const record = await findTokenRecord(claims.jti);
  if (!record || record.application.clientId !== claims.clientId) return invalidToken("The access token is invalid");
  const subject = (await pairwiseIds({ kind: "application", id: record.application.id })).toPartner(record.profileId);
  if (subject !== claims.sub.toLowerCase()) return invalidToken("The access token is invalid");
  if (record.revokedAt) return invalidToken("The access token was revoked");
  if (record.expiresAt.getTime() <= now.getTime()) return invalidToken("The access token expired");
  if (!record.scope.split(" ").includes(USER_INFO_SCOPE)) {
    return new OAuthError("insufficient_scope", `The access token lacks the ${USER_INFO_SCOPE} scope`);
  }
  const relationshipId = options.relationshipId?.trim().toLowerCase();
  if (relationshipId && relationshipId !== subject) {
    return new OAuthError("access_denied", "x-relationship-id is not the profile of this access token", 403);
  }

  const { role, institution, person } = record;
  if (!role || !institution || !person) return invalidToken("The profile of this access token no longer exists");
  const profile = { id: record.profileId, role, institution, person };
  const access = sharingRuleOf(record.ruleRows, "application", profile.role);
  if (!access.enabled) return invalidToken("The institution no longer enables this application");

  const { configuration } = access;
  const usuario = recordFilter(configuration, record.application.id)(personAttributes(profile.person));
  // The institution's log names what was returned, never the values (docs/gestao.md).
  logAccess({
    channel: "user_info", applicationId: record.application.id, institutionId: profile.institution.id, profileId: profile.id,
    attributes: Object.keys(usuario), status: 200,
  });
  return {
    sub: subject,
    user_id: subject,
    perfil: profile.role,
    instituicao: { id: profile.institution.id, nome: profile.institution.name, tipo: profile.institution.kind },
    usuario: usuario as TUserInfo["usuario"],
    configuracao: { conjuntoDadosUsuario: { atributosPermitidos: configuration.allowed, atributosAnonimizados: configuration.anonymized } },
  };
}
