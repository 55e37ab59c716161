// The platform's OIDC authorization endpoint for LTI 1.3 launches (Security Framework 1.0
// §5.1.1.2–§5.1.1.3; LTI Core 1.3 §5.1): it checks the tool's authentication request, binds it to
// the signed-in profile and the sealed placement, and answers the id_token as a form post.
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { buildLtiClaims, type TClaimsInput } from "@/lib/lti13/claims";
import { checkAuthenticationRequest, parseAuthenticationRequest, type TAuthenticationRule } from "@/lib/lti13/authentication-request";
import { openMessageHint, type TMessageHint } from "@/lib/lti13/message-hint";
import { logAccess } from "@/lib/server/audit/log-access";
import { metrics } from "@/lib/server/metrics/registry.mjs";
import { loadIdentityRoots } from "@/lib/server/crypto/identity-root";
import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
import { database } from "@/lib/server/db/database";
import { findPlacement, TOOL_CONSUMER_INSTANCE_NAME, ZCustomParamsSchema, LAUNCH_REFUSED, type TBuiltLaunch } from "@/lib/server/launch/build-launch";
import { personalLaunchFields } from "@/lib/server/launch/personal-launch-fields";
import { rememberNonce } from "@/lib/server/lti-nonces/remember-nonce";
import { pairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { sharingRuleOf } from "@/lib/server/privacy/resolve-sharing-rule";
import type { TActingProfile } from "@/lib/server/tools/acting-profile";
import { deepLinkingIdToken } from "./deep-linking";
import { signLti13IdToken } from "./sign-lti13-id-token";
import { messageHintKey } from "./message-hint-key";
import { LTI13_PATHS } from "./platform-facts";



/** Why an authentication request was refused: a rule name (shown to the developer, never data). */
export class Lti13AuthorizationError extends AppError {
  constructor(
    readonly rule: TAuthenticationRule | "requestWellFormed" | "messageHintValid" | "loginHintMatchesUser" | "nonceUnused" | "toolActive",
    code: "bad_request" | "forbidden" | "not_found" = "bad_request",
  ) {
    super(code, `Pedido de login LTI 1.3 recusado (${rule}).`);
  }
}

interface TRegistrationRow {
  toolId: string;
  clientId: string;
  deploymentId: string;
  redirectUris: string[];
  status: string;
}

const REGISTRATION_SQL = `
SELECT l."toolId", l."clientId", l."deploymentId", l."redirectUris", t.status
  FROM "ToolLti13" l JOIN "Tool" t ON t.id = l."toolId"
 WHERE l."clientId" = $1::uuid`;

export type TAuthorizeOutcome = { kind: "sign_in" } | { kind: "form"; launch: TBuiltLaunch };

/**
 * The id_token form for a tool's authentication request, or "sign in first". Everything before
 * the redirect URI is known to be registered is answered by the hub (never sent to the tool).
 */
export async function authorizeLti13(options: { params: URLSearchParams; profile: TActingProfile | null; now?: Date }): Promise<TAuthorizeOutcome> {
  const now = options.now ?? new Date();
  const request = parseAuthenticationRequest(options.params);
  if (!request) throw new Lti13AuthorizationError("requestWellFormed");
  const clientId = request.client_id ?? "";
  const [registration] = isUuidText(clientId)
    ? await database().sql.query<TRegistrationRow>(REGISTRATION_SQL, [clientId], { prepared: true })
    : [];
  const check = checkAuthenticationRequest(request, { registration: registration ?? null });
  if (!check.ok) throw new Lti13AuthorizationError(check.rule);
  if (!registration || registration.status !== "active") throw new Lti13AuthorizationError("toolActive", "not_found");
  const hint = openMessageHint(request.lti_message_hint!, messageHintKey(), Math.floor(now.getTime() / 1000));
  if (!hint || hint.c !== registration.clientId) throw new Lti13AuthorizationError("messageHintValid");
  if (!options.profile) return { kind: "sign_in" };
  const profile = options.profile;
  // The hint was sealed for one profile; the browser's session must still be that profile, and
  // login_hint must be that profile's id at this tool (a tool cannot swap in another user).
  const ids = await pairwiseIds({ kind: "tool", id: registration.toolId });
  if (hint.p !== profile.id || request.login_hint !== ids.toPartner(profile.id)) throw new Lti13AuthorizationError("loginHintMatchesUser", "forbidden");
  // Single use per client: a replayed authentication request gets no second id_token.
  if (!(await rememberNonce({ consumerKey: `lti13:${registration.clientId}`, nonce: request.nonce! }))) throw new Lti13AuthorizationError("nonceUnused");
  const idToken =
    hint.m === "LtiDeepLinkingRequest"
      ? await deepLinkingIdToken({ classId: hint.t, profile, toolId: registration.toolId, clientId: registration.clientId, nonce: request.nonce!, sub: request.login_hint!, now })
      : await resourceLinkIdToken({ hint, profile, registration, nonce: request.nonce!, sub: request.login_hint!, now });
  const fields: Array<[string, string]> = [["id_token", idToken.token]];
  if (request.state !== undefined) fields.push(["state", request.state]);
  return { kind: "form", launch: { action: request.redirect_uri!, fields, toolOrigin: new URL(request.redirect_uri!).origin, toolTitle: idToken.toolTitle } };
}

/** The placement as the LTI 1.0 launch reads it (same query, same usability and sharing rules). */
async function resourceLinkIdToken(options: {
  hint: TMessageHint;
  profile: TActingProfile;
  registration: TRegistrationRow;
  nonce: string;
  sub: string;
  now: Date;
}): Promise<{ token: string; toolTitle: string }> {
  const { hint, profile, registration } = options;
  const notFound = new AppError("not_found", "Ferramenta não encontrada.");
  const [placement] = await Promise.all([findPlacement(hint.t, profile), loadIdentityRoots()]);
  if (!placement || placement.tool.id !== registration.toolId || !placement.lti13) throw notFound;
  const sharing = sharingRuleOf(placement.ruleRows, "tool", profile.role);
  if (!sharing.enabled) throw new AppError("forbidden", LAUNCH_REFUSED);
  const base = env().HUB_BASE_URL;
  const personal = personalLaunchFields({ configuration: sharing.configuration, toolId: placement.tool.id, person: placement.person });
  const input: TClaimsInput = {
    messageType: "LtiResourceLinkRequest",
    deploymentId: registration.deploymentId,
    targetLinkUri: placement.lti13.targetLinkUri,
    role: profile.role,
    resourceLink: { id: placement.id, title: placement.title ?? placement.tool.title },
    context: placement.class
      ? { id: placement.class.id, label: placement.class.name, title: `${placement.class.name} · ${placement.class.periodName}` }
      : undefined,
    platform: { guid: new URL(base).host, name: TOOL_CONSUMER_INSTANCE_NAME },
    returnUrl: `${base}/`,
    custom: ZCustomParamsSchema.parse(placement.customParams),
    name: personal.personNameFull,
    email: personal.personEmail,
    // NRPS 2.0 §3.5: a class placement lets the tool read that class's members (/lti13/token first).
    membershipsUrl: placement.class ? `${base}${LTI13_PATHS.memberships}/${placement.class.id}` : undefined,
  };
  const token = await signLti13IdToken({ claims: buildLtiClaims(input), clientId: registration.clientId, sub: options.sub, nonce: options.nonce, now: options.now });
  const attributes = [...(input.name ? ["lis_person_name_full"] : []), ...(input.email ? ["lis_person_contact_email_primary"] : [])];
  metrics().launches.inc({ lti_version: "1.3" });
  logAccess({ channel: "lti_launch", toolId: placement.tool.id, institutionId: profile.institutionId, profileId: profile.id, attributes, status: 200 });
  return { token, toolTitle: placement.tool.title };
}
