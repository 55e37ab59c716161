// LTI Advantage services (issue #21 point 4): the token endpoint of Security Framework 1.0 §4.1
// (OAuth 2 client credentials with an RFC 7523 JWT assertion signed by the tool's key) and Names
// and Role Provisioning Services 2.0 (a class's members, paged, only the attributes the school's
// rule allows, ids pairwise per tool).
import { randomUUID } from "node:crypto";
import { env } from "@/lib/env";
import { contextRoles, NRPS_SCOPE } from "@/lib/lti13/claims";
import { verifyClientAssertion } from "@/lib/lti13/tool-jwt";
import { signAccessToken, verifyAccessToken } from "@/lib/oauth/jwt";
import { OAuthError } from "@/lib/oauth/errors";
import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
import { database } from "@/lib/server/db/database";
import { personalLaunchFields } from "@/lib/server/launch/personal-launch-fields";
import { rememberNonce } from "@/lib/server/lti-nonces/remember-nonce";
import { getSigningKey, ourTokenVerification } from "@/lib/server/oauth/signing-keys";
import { pairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { resolveSharingRule } from "@/lib/server/privacy/resolve-sharing-rule";
import { LTI13_PATHS } from "./platform-facts";
import { toolKeys } from "./tool-keys";

export const SERVICE_TOKEN_SECONDS = 3600;
/** An assertion may live at most this long, so its jti is remembered (LtiNonce, 600 s) for all of it. */
const MAX_ASSERTION_SECONDS = 300;
export const NRPS_MEDIA_TYPE = "application/vnd.ims.lti-nrps.v2.membershipcontainer+json";
const SUPPORTED_SCOPES = new Set([NRPS_SCOPE]);

interface TRegistrationKeys {
  toolId: string;
  clientId: string;
  jwksUrl: string | null;
  publicJwk: unknown;
}

/** POST /lti13/token: an access token for the scopes asked that the hub offers (NRPS read only). */
export async function issueServiceToken(form: URLSearchParams, now = new Date()): Promise<{ access_token: string; token_type: "Bearer"; expires_in: number; scope: string }> {
  if (form.get("grant_type") !== "client_credentials") throw new OAuthError("unsupported_grant_type", "grant_type must be client_credentials");
  if (form.get("client_assertion_type") !== "urn:ietf:params:oauth:client-assertion-type:jwt-bearer") throw new OAuthError("invalid_client", "a JWT client assertion is required");
  const assertion = form.get("client_assertion") ?? "";
  let iss: unknown;
  try {
    iss = JSON.parse(Buffer.from(assertion.split(".")[1] ?? "", "base64url").toString("utf8")).iss;
  } catch {
    throw new OAuthError("invalid_client", "the client assertion is not a JWT");
  }
  const [registration] = typeof iss === "string" && isUuidText(iss)
    ? await database().sql.query<TRegistrationKeys>(`SELECT "toolId", "clientId", "jwksUrl", "publicJwk" FROM "ToolLti13" l JOIN "Tool" t ON t.id = l."toolId" WHERE "clientId" = $1::uuid AND t.status = 'active'`, [iss])
    : [];
  if (!registration) throw new OAuthError("invalid_client", "unknown client");
  const base = env().HUB_BASE_URL;
  const verified = await verifyClientAssertion(assertion, { keys: await toolKeys(registration), clientId: registration.clientId, audience: [`${base}${LTI13_PATHS.token}`, base], now });
  if (!verified.ok) throw new OAuthError("invalid_client", `client assertion refused (${verified.rule})`);
  if (verified.exp - Math.floor(now.getTime() / 1000) > MAX_ASSERTION_SECONDS) throw new OAuthError("invalid_client", "client assertion lives too long");
  if (!(await rememberNonce({ consumerKey: `lti13-jwt:${registration.clientId}`, nonce: verified.jti }))) throw new OAuthError("invalid_client", "client assertion replayed");
  const asked = (form.get("scope") ?? "").split(" ").filter(Boolean);
  const scope = asked.filter((s) => SUPPORTED_SCOPES.has(s));
  if (scope.length === 0) throw new OAuthError("invalid_scope", "no supported scope asked");
  const accessToken = await signAccessToken({
    key: await getSigningKey({ now }),
    issuer: base,
    audience: registration.clientId,
    subject: registration.clientId,
    clientId: registration.clientId,
    scope,
    jti: randomUUID(),
    expiresInSeconds: SERVICE_TOKEN_SECONDS,
    now,
  });
  return { access_token: accessToken, token_type: "Bearer", expires_in: SERVICE_TOKEN_SECONDS, scope: scope.join(" ") };
}

interface TClassRow {
  toolId: string;
  edtechId: string;
  classId: string;
  className: string;
  periodName: string;
  institutionId: string;
}

interface TMemberRow {
  id: string;
  role: "aluno" | "professor" | "responsavel" | "gestor";
  name: string;
  email: string | null;
}

// The class, if the client's tool is placed for it (the only classes whose memberships URL a launch carries).
const CLASS_SQL = `
SELECT t.id AS "toolId", t."edtechId", c.id AS "classId", c.name AS "className", pd.name AS "periodName", c."institutionId"
  FROM "ToolLti13" l JOIN "Tool" t ON t.id = l."toolId", "Class" c JOIN "Period" pd ON pd.id = c."periodId"
 WHERE l."clientId" = $1::uuid AND c.id = $2::uuid AND t.status = 'active'
   AND EXISTS (SELECT 1 FROM "Placement" p WHERE p."toolId" = t.id AND p."classId" = c.id)`;

const MEMBERS_SQL = `
SELECT pr.id, pr.role, pe.name, pe.email
  FROM (SELECT cs."studentId" AS id FROM "ClassStudent" cs WHERE cs."classId" = $1::uuid
        UNION SELECT st."teacherId" FROM "SubjectTeacher" st WHERE st."classId" = $1::uuid) m
  JOIN "Profile" pr ON pr.id = m.id JOIN "Person" pe ON pe.id = pr."personId"
 WHERE $3::uuid IS NULL OR pr.id > $3::uuid
 ORDER BY pr.id LIMIT $2`;

export const NRPS_DEFAULT_LIMIT = 100;
const NRPS_MAX_LIMIT = 1000;

/** GET /lti13/memberships/{classId}: one page of the class's members for the token's tool. */
export async function listMemberships(options: { authorization: string | null; classId: string; query: URLSearchParams; now?: Date }): Promise<{ body: object; next: string | null }> {
  const now = options.now ?? new Date();
  const bearer = /^Bearer (\S+)$/i.exec(options.authorization ?? "")?.[1];
  if (!bearer) throw new OAuthError("invalid_token", "a Bearer token is required");
  const claims = await verifyAccessToken(bearer, ourTokenVerification(now));
  if (claims instanceof OAuthError) throw claims;
  if (!claims.scope.split(" ").includes(NRPS_SCOPE)) throw new OAuthError("insufficient_scope", "the token lacks the NRPS scope");
  const notFound = new OAuthError("invalid_request", "unknown context", 404);
  if (!isUuidText(options.classId) || !isUuidText(claims.client_id)) throw notFound;
  const [cls] = await database().sql.query<TClassRow>(CLASS_SQL, [claims.client_id, options.classId]);
  if (!cls) throw notFound;
  const rule = await resolveSharingRule({ institutionId: cls.institutionId, partner: { kind: "tool", id: cls.toolId, edtechId: cls.edtechId }, role: null });
  if (!rule.enabled) throw new OAuthError("access_denied", "the school no longer shares data with this tool", 403);
  const limitText = options.query.get("limit");
  const limit = Math.min(Math.max(Number.parseInt(limitText ?? "", 10) || NRPS_DEFAULT_LIMIT, 1), NRPS_MAX_LIMIT);
  const ids = await pairwiseIds({ kind: "tool", id: cls.toolId });
  // Pages follow the members' order, from the last member the previous page held (`after`, the
  // tool's own id of that member), not an offset: a member who leaves or joins between two pages
  // moves no one else across the page boundary, so none is skipped or read twice.
  const afterText = options.query.get("after");
  const after = afterText === null ? null : ids.toGlobal(afterText);
  if (afterText !== null && after === null) throw new OAuthError("invalid_request", "after must be a member's user_id, as the previous page's next link has it");
  const rows = await database().sql.query<TMemberRow>(MEMBERS_SQL, [cls.classId, limit + 1, after]);
  const members = rows.slice(0, limit).map((row) => {
    const personal = personalLaunchFields({ configuration: rule.byRole[row.role], toolId: cls.toolId, person: { name: row.name, email: row.email } });
    return {
      status: "Active",
      user_id: ids.toPartner(row.id),
      roles: contextRoles(row.role),
      ...(personal.personNameFull ? { name: personal.personNameFull } : {}),
      ...(personal.personEmail ? { email: personal.personEmail } : {}),
    };
  });
  const base = env().HUB_BASE_URL;
  const self = `${base}${LTI13_PATHS.memberships}/${cls.classId}`;
  const next = rows.length > limit ? `${self}?${new URLSearchParams({ limit: String(limit), after: ids.toPartner(rows[limit - 1]!.id) })}` : null;
  return {
    body: { id: self, context: { id: cls.classId, label: cls.className, title: `${cls.className} · ${cls.periodName}` }, members },
    next,
  };
}
