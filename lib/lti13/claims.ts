/**
 * The LTI 1.3 message claims (LTI Core 1.3 §5.3–§5.4, Deep Linking 2.0 §4.4). Pure: the caller has
 * already decided, under the institution's sharing rule, which personal claims may leave the hub.
 * The registered JWT claims (iss, sub, aud, exp, iat, nonce) are added by the signer (lib/oauth/jwt).
 */
import type { RoleName } from "@/lib/lti/launch-params";

export const LTI_CLAIM = "https://purl.imsglobal.org/spec/lti/claim/";
export const DL_CLAIM = "https://purl.imsglobal.org/spec/lti-dl/claim/";
export const NRPS_CLAIM = "https://purl.imsglobal.org/spec/lti-nrps/claim/namesroleservice";
export const NRPS_SCOPE = "https://purl.imsglobal.org/spec/lti-nrps/scope/contextmembership.readonly";

export const CLAIMS = {
  messageType: `${LTI_CLAIM}message_type`,
  version: `${LTI_CLAIM}version`,
  deploymentId: `${LTI_CLAIM}deployment_id`,
  targetLinkUri: `${LTI_CLAIM}target_link_uri`,
  resourceLink: `${LTI_CLAIM}resource_link`,
  roles: `${LTI_CLAIM}roles`,
  context: `${LTI_CLAIM}context`,
  toolPlatform: `${LTI_CLAIM}tool_platform`,
  launchPresentation: `${LTI_CLAIM}launch_presentation`,
  custom: `${LTI_CLAIM}custom`,
  lis: `${LTI_CLAIM}lis`,
  deepLinkingSettings: `${DL_CLAIM}deep_linking_settings`,
  contentItems: `${DL_CLAIM}content_items`,
  data: `${DL_CLAIM}data`,
} as const;

export type TMessageType = "LtiResourceLinkRequest" | "LtiDeepLinkingRequest";

const LIS = "http://purl.imsglobal.org/vocab/lis/v2/";

/**
 * Hub role → LTI 1.3 roles (LTI Core 1.3 Appendix A.2): the context (membership) role first, the
 * institution role after it. A guardian is Mentor, as in the LTI 1.0 launch (lib/lti LIS_ROLES).
 */
export const LTI13_ROLES: Readonly<Record<RoleName, readonly string[]>> = {
  aluno: [`${LIS}membership#Learner`, `${LIS}institution/person#Student`],
  professor: [`${LIS}membership#Instructor`, `${LIS}institution/person#Faculty`],
  responsavel: [`${LIS}membership#Mentor`, `${LIS}institution/person#Guardian`],
  gestor: [`${LIS}membership#Administrator`, `${LIS}institution/person#Administrator`],
};

/** NRPS 2.0 §2.2: members carry their context roles only. */
export function contextRoles(role: RoleName): string[] {
  return [LTI13_ROLES[role][0]!];
}

/** The context type of a class (LTI Core 1.3 Appendix A.1). */
export const COURSE_SECTION = `${LIS}course#CourseSection`;

export interface TClaimsInput {
  messageType: TMessageType;
  deploymentId: string;
  targetLinkUri: string;
  role: RoleName;
  /** LtiResourceLinkRequest only (LTI Core §5.3.5: required there, absent from deep linking). */
  resourceLink?: { id: string; title: string };
  /** The class, when the placement is one (optional claim, §5.4.1). */
  context?: { id: string; label: string; title: string };
  platform: { guid: string; name: string };
  returnUrl: string;
  custom?: Record<string, string>;
  /** Only what the sharing rule allows (possibly pseudonyms); absent means not shared. */
  name?: string;
  email?: string;
  /** LtiDeepLinkingRequest only (Deep Linking 2.0 §4.4.1). */
  deepLinking?: { returnUrl: string; data: string };
  /** NRPS 2.0 §3.5: the class's membership URL, when the tool may read it. */
  membershipsUrl?: string;
}

/** The claims of one launch message, required ones always, optional ones only when given. */
export function buildLtiClaims(input: TClaimsInput): Record<string, unknown> {
  const claims: Record<string, unknown> = {
    [CLAIMS.messageType]: input.messageType,
    [CLAIMS.version]: "1.3.0",
    [CLAIMS.deploymentId]: input.deploymentId,
    [CLAIMS.targetLinkUri]: input.targetLinkUri,
    [CLAIMS.roles]: [...LTI13_ROLES[input.role]],
    [CLAIMS.toolPlatform]: { guid: input.platform.guid, name: input.platform.name, product_family_code: "hub-educacional" },
    [CLAIMS.launchPresentation]: { document_target: "window", locale: "pt-BR", return_url: input.returnUrl },
  };
  if (input.messageType === "LtiResourceLinkRequest") {
    if (!input.resourceLink) throw new Error("a resource link launch needs its resource link");
    claims[CLAIMS.resourceLink] = { id: input.resourceLink.id, title: input.resourceLink.title };
  }
  if (input.messageType === "LtiDeepLinkingRequest") {
    if (!input.deepLinking) throw new Error("a deep linking request needs its settings");
    claims[CLAIMS.deepLinkingSettings] = {
      deep_link_return_url: input.deepLinking.returnUrl,
      accept_types: ["ltiResourceLink"],
      accept_presentation_document_targets: ["window"],
      accept_multiple: true,
      auto_create: true,
      data: input.deepLinking.data,
    };
  }
  if (input.context) claims[CLAIMS.context] = { ...input.context, type: [COURSE_SECTION] };
  if (input.custom && Object.keys(input.custom).length > 0) claims[CLAIMS.custom] = { ...input.custom };
  if (input.membershipsUrl) claims[NRPS_CLAIM] = { context_memberships_url: input.membershipsUrl, service_versions: ["2.0"] };
  // OIDC Core §5.1 standard claims: `name` and `email` only when shared.
  if (input.name) claims.name = input.name;
  if (input.email) claims.email = input.email;
  return claims;
}

/** Third-party initiated login (Security Framework 1.0 §5.1.1.1; LTI Core 1.3 §4.1). */
export interface TLoginInitiationInput {
  issuer: string;
  loginHint: string;
  targetLinkUri: string;
  messageHint: string;
  clientId: string;
  deploymentId: string;
}

/** The login initiation request's fields, in the order they are sent. */
export function loginInitiationFields(input: TLoginInitiationInput): Array<[string, string]> {
  return [
    ["iss", input.issuer],
    ["login_hint", input.loginHint],
    ["target_link_uri", input.targetLinkUri],
    ["lti_message_hint", input.messageHint],
    ["client_id", input.clientId],
    ["lti_deployment_id", input.deploymentId],
  ];
}
