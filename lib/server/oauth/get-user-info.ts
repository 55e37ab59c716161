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
// A process keeps its last answer for a token and sends it again while one statement, read on every
// call, shows that nothing it was made of has changed (TKeptAnswer, FRESH_SQL); revocation, expiry
// and x-relationship-id are checked on every call, and every call is written to the access log.
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
import { FRESH_SQL, STAMP, TOKEN_FROM, tokenState } from "./user-info-sql";

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
 * A user info answer this process computed for a token, and what it was computed from (`stamp`:
 * the versions of the rows it read, see STAMP). It is served again only while the database, read
 * on every call in the same statement as the token's row (FRESH_SQL), still shows that stamp: a
 * changed person, profile, institution, application or sharing rule changes the stamp in the same
 * commit, and the answer is then computed afresh by RECORD_SQL, which reads the record and its
 * stamp from one snapshot. Revocation and expiry come from the token's row on every call; the
 * access log is written on every call.
 */
interface TKeptAnswer {
  stamp: string;
  /** The answer as JSON text (TUserInfo). */
  body: string;
  subject: string;
  applicationId: string;
  institutionId: string;
  profileId: string;
  attributes: readonly string[];
}

/** A verified token, and the last answer given for it (if it was a 200). */
type TVerifiedToken = TPresentedToken & { exp: number; answer?: TKeptAnswer };

/**
 * Tokens whose signature this process verified, until they expire (docs/decisions/025): a JWT's
 * signature, issuer and claims never change, and a key stays published for as long as any token
 * it signed is unexpired, so the verification's answer for a given token string holds until its
 * `exp`. Everything that can change — revocation, the profile, the institution's rules — is read
 * from the database on every request, after this (the last answer kept beside a token is sent only
 * if the statement shows it still holds). Only tokens that verified are kept (a forged one cannot
 * fill the map), at most VERIFIED_TOKENS_MAX, the oldest forgotten first.
 */
const verifiedTokens = new Map<string, TVerifiedToken>();
const VERIFIED_TOKENS_MAX = 10_000;

async function verifyPresentedToken(token: string, now: Date): Promise<TVerifiedToken | OAuthError> {
  const known = verifiedTokens.get(token);
  if (known && known.exp * 1000 > now.getTime()) return known;
  if (known) verifiedTokens.delete(token);
  const verified = await verifySignedToken(token, now);
  if (verified instanceof OAuthError) return verified;
  if (verifiedTokens.size >= VERIFIED_TOKENS_MAX) verifiedTokens.delete(verifiedTokens.keys().next().value!);
  verifiedTokens.set(token, verified);
  return verified;
}

/** What every call reads: the token's state now, and what an answer is made of when none is kept. */
interface TTokenRow {
  revoked: boolean;
  /** expiresAt ≤ the `now` of the call. */
  expired: boolean;
}

interface TTokenRecord {
  profileId: string;
  scope: string;
  /** What the record was read from (see STAMP). */
  stamp: string;
  application: { id: string; clientId: string; edtechId: string };
  /** Null when the profile was deleted since the token was issued. */
  role: Role | null;
  institution: { id: string; name: string; kind: InstitutionKind } | null;
  person: Omit<Pick<Person, "name" | "birthDate" | "cpf" | "email" | "phone">, "birthDate"> | null;
  /** YYYY-MM-DD. */
  birthDate: string | null;
  /** The application's sharing rule rows at the profile's institution (the rule engine's sub-select). */
  ruleRows: TRuleRow[];
}

/**
 * For a token without a kept answer, or a stale one: its state and, from the same snapshot, the
 * stamp, the token's profile and scope, the application, profile, person, institution and the
 * application's sharing rule rows there (the rule engine's sub-select), in one prepared statement
 * (docs/decisions/021). $2: the call's time.
 */
export const RECORD_SQL = `
SELECT ${tokenState("$2")}, json_build_object(
         'profileId', t."profileId", 'scope', t.scope, 'stamp', ${STAMP},
         'application', json_build_object('id', a.id, 'clientId', a."clientId", 'edtechId', a."edtechId"),
         'role', pr.role,
         'institution', CASE WHEN i.id IS NULL THEN NULL ELSE json_build_object('id', i.id, 'name', i.name, 'kind', i.kind) END,
         'person', CASE WHEN pe.id IS NULL THEN NULL ELSE json_build_object('name', pe.name, 'cpf', pe.cpf, 'email', pe.email, 'phone', pe.phone) END,
         'birthDate', to_char(pe."birthDate", 'YYYY-MM-DD'),
         'ruleRows', ${ruleRowsColumnSql("application", { institution: `pr."institutionId"`, edtech: `a."edtechId"`, partner: "a.id" })}
       ) AS record ${TOKEN_FROM}`;

function readToken<T>(sql: string, values: unknown[]): Promise<(TTokenRow & T) | undefined> {
  return database().sql.query<TTokenRow & T>(sql, values, { prepared: true }).then((rows) => rows[0]);
}

/** The answer for a token whose row, application and profile were read in full (no kept answer, or a stale one). */
async function computeAnswer(claims: TPresentedToken, row: TTokenRow, record: TTokenRecord, relationshipId: string | undefined): Promise<TKeptAnswer | OAuthError> {
  const { application } = record;
  if (application.clientId !== claims.clientId) return invalidToken("The access token is invalid");
  const subject = (await pairwiseIds({ kind: "application", id: application.id })).toPartner(record.profileId);
  if (subject !== claims.sub.toLowerCase()) return invalidToken("The access token is invalid");
  const refused = refusal(row);
  if (refused) return refused;
  if (!record.scope.split(" ").includes(USER_INFO_SCOPE)) {
    return new OAuthError("insufficient_scope", `The access token lacks the ${USER_INFO_SCOPE} scope`);
  }
  const mismatch = relationshipMismatch(relationshipId, subject);
  if (mismatch) return mismatch;
  const { role, institution, person } = record;
  if (!role || !institution || !person) return invalidToken("The profile of this access token no longer exists");
  const access = sharingRuleOf(record.ruleRows, "application", role);
  if (!access.enabled) return invalidToken("The institution no longer enables this application");

  const { configuration } = access;
  const usuario = recordFilter(configuration, application.id)(personAttributes({ ...person, birthDate: record.birthDate === null ? null : new Date(`${record.birthDate}T00:00:00Z`) }));
  const info: TUserInfo = {
    sub: subject,
    user_id: subject,
    perfil: role,
    instituicao: { id: institution.id, nome: institution.name, tipo: institution.kind },
    usuario: usuario as TUserInfo["usuario"],
    configuracao: { conjuntoDadosUsuario: { atributosPermitidos: configuration.allowed, atributosAnonimizados: configuration.anonymized } },
  };
  return {
    stamp: record.stamp, body: JSON.stringify(info), subject,
    applicationId: application.id, institutionId: institution.id, profileId: record.profileId, attributes: Object.freeze(Object.keys(usuario)),
  };
}

/** What the token's row refuses on every call, whatever was kept: revocation, then expiry. */
function refusal(row: TTokenRow): OAuthError | null {
  if (row.revoked) return invalidToken("The access token was revoked");
  if (row.expired) return invalidToken("The access token expired");
  return null;
}

function relationshipMismatch(relationshipId: string | undefined, subject: string): OAuthError | null {
  if (!relationshipId || relationshipId === subject) return null;
  return new OAuthError("access_denied", "x-relationship-id is not the profile of this access token", 403);
}

/**
 * User info for the `authorization` presented, as the JSON text of a TUserInfo (what the HTTP
 * endpoint sends), or the error to answer.
 */
export async function userInfoBody(options: { authorization: string | null; relationshipId: string | null; now?: Date }): Promise<string | OAuthError> {
  const now = options.now ?? new Date();
  const token = readBearerToken(options.authorization);
  if (token instanceof OAuthError) return token;
  const claims = await verifyPresentedToken(token, now);
  if (claims instanceof OAuthError) return claims;

  const relationshipId = options.relationshipId?.trim().toLowerCase();
  const kept = claims.answer;
  let answer: TKeptAnswer | undefined;
  if (kept) {
    const row = await readToken<{ fresh: boolean }>(FRESH_SQL, [claims.jti, kept.stamp, now.toISOString()]);
    if (!row) return invalidToken("The access token is invalid");
    if (row.fresh) {
      // Nothing this token's answer was made of has changed (the clientId, subject, scope, profile
      // and rule checks it passed give the same result): only the checks of what moves per call.
      const refused = refusal(row) ?? relationshipMismatch(relationshipId, kept.subject);
      if (refused) return refused;
      answer = kept;
    }
  }
  if (!answer) {
    // No answer kept, or a stale one: everything read again, from one snapshot.
    const row = await readToken<{ record: TTokenRecord }>(RECORD_SQL, [claims.jti, now.toISOString()]);
    if (!row) return invalidToken("The access token is invalid");
    const computed = await computeAnswer(claims, row, row.record, relationshipId);
    if (computed instanceof OAuthError) return computed;
    answer = computed;
    claims.answer = computed;
  }
  // The institution's log names what was returned, never the values (docs/gestao.md).
  logAccess({
    channel: "user_info", applicationId: answer.applicationId, institutionId: answer.institutionId, profileId: answer.profileId,
    attributes: answer.attributes, status: 200,
  });
  return answer.body;
}

export async function getUserInfo(options: { authorization: string | null; relationshipId: string | null; now?: Date }): Promise<TUserInfo | OAuthError> {
  const body = await userInfoBody(options);
  return body instanceof OAuthError ? body : (JSON.parse(body) as TUserInfo);
}
