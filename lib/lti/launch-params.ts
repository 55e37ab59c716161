/**
 * The LTI 1.0 message a placement launch carries (without oauth_*, which
 * sign-launch adds). Pure: the caller has already decided which personal
 * fields the institution allows for this tool.
 */

export type RoleName = "aluno" | "professor" | "responsavel" | "gestor";

/** Hub profile role → LIS role URN (LTI 1.1 role vocabulary). */
export const LIS_ROLES: Readonly<Record<RoleName, string>> = {
  aluno: "urn:lti:role:ims/lis/Learner",
  professor: "urn:lti:role:ims/lis/Instructor",
  // LIS has no "guardian"; Mentor is the role LTI defines for someone acting on a learner's behalf.
  responsavel: "urn:lti:role:ims/lis/Mentor",
  gestor: "urn:lti:role:ims/lis/Administrator",
};

export interface LaunchContextInput {
  id: string;
  title: string;
  label: string;
}

export interface LaunchParamsInput {
  resourceLinkId: string;
  resourceLinkTitle: string;
  /** Profile id: one person with two profiles is two LTI users, as in OAuth 2 sign-in. */
  userId: string;
  role: RoleName;
  /** Present only when the placement is a class. */
  context?: LaunchContextInput;
  returnUrl: string;
  toolConsumerInstanceGuid: string;
  toolConsumerInstanceName: string;
  /** Placement custom parameters by bare name (no "custom_" prefix). */
  custom?: Record<string, string>;
  personNameFull?: string;
  personEmail?: string;
}

/** LTI 1.1 custom parameter rule: lowercase, and every character outside [a-z0-9] becomes "_". */
export function customParamName(name: string): string {
  return `custom_${name.toLowerCase().replace(/[^a-z0-9]/g, "_")}`;
}

function customParams(custom: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(custom)) {
    const key = customParamName(name);
    // Two names that normalise alike would silently drop one value.
    if (Object.hasOwn(out, key)) throw new Error(`custom parameters collide on ${key}`);
    out[key] = value;
  }
  return out;
}

function contextParams(context: LaunchContextInput | undefined): Record<string, string> {
  if (!context) return {};
  return { context_id: context.id, context_title: context.title, context_label: context.label };
}

/** Personal data leaves the hub only when the caller passed it; empty means "not shared". */
function optional(name: string, value: string | undefined): Record<string, string> {
  return value ? { [name]: value } : {};
}

export function buildLaunchParams(input: LaunchParamsInput): Record<string, string> {
  return {
    lti_message_type: "basic-lti-launch-request",
    lti_version: "LTI-1p0",
    resource_link_id: input.resourceLinkId,
    resource_link_title: input.resourceLinkTitle,
    user_id: input.userId,
    roles: LIS_ROLES[input.role],
    ...contextParams(input.context),
    launch_presentation_locale: "pt-BR",
    launch_presentation_return_url: input.returnUrl,
    tool_consumer_instance_guid: input.toolConsumerInstanceGuid,
    tool_consumer_instance_name: input.toolConsumerInstanceName,
    ...customParams(input.custom ?? {}),
    ...optional("lis_person_name_full", input.personNameFull),
    ...optional("lis_person_contact_email_primary", input.personEmail),
  };
}
