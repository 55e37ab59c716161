// "What this tool receives": the personal lis_person_* fields of a launch for real people (one
// per role), computed by the launch's own code (resolveSharingRule at the person's institution
// for her role, then personalLaunchFields and buildLaunchParams), next to the values stored in
// the hub.
import { db } from "@/lib/server/db/database";
import { buildLaunchParams } from "@/lib/lti/launch-params";
import { personalLaunchFields } from "@/lib/server/launch/personal-launch-fields";
import { resolveSharingRule } from "@/lib/server/privacy/resolve-sharing-rule";
import { PROFILE_ROLES, type TProfileRole } from "@/lib/validations/data-api";
import { ZIdSchema } from "@/lib/validations/management";
import { findSampleProfileId } from "./preview-sample-profile";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";
import { subtreeOf } from "@/lib/server/institution-tree/subtree-of";

export interface TLaunchSample {
  person: { profileId: string; role: TProfileRole; name: string; email: string | null; institutionName: string };
  /** The lis_person_* fields a launch by this person carries, in order (none: nothing personal). */
  fields: [string, string][];
}

export type TToolLaunchPreview =
  | { status: "no_contract" }
  | { status: "no_person" }
  | ({ status: "ok"; /** One person per role (the latest changed of that role), each with her role's rule. */ porPerfil: TLaunchSample[] } & TLaunchSample);

/**
 * The preview for one tool and one person of the institution or its descendants (the given
 * profile, or the most recently changed one), and one person of each role. A launch happens at the
 * person's own institution with the rule of her role, so the rule is resolved there for that role:
 * a school's own rule shows even when a network manager looks.
 */
export async function previewToolLaunch(options: { scope: TManagerScope; institutionId: string; toolId: string; profileId?: string }): Promise<TToolLaunchPreview> {
  const institution = requireInReach(options);
  const toolId = ZIdSchema.parse(options.toolId);
  const tool = await db().tool.findUnique({ where: { id: toolId }, select: { id: true, edtechId: true } });
  if (!tool) return { status: "no_contract" };
  const subtree = subtreeOf({ institutions: options.scope.institutions, rootId: institution.id }).map((i) => i.id);
  const contract = await resolveSharingRule({ institutionId: institution.id, partner: { kind: "tool", ...tool }, role: null });
  if (!contract.enabled) return { status: "no_contract" };

  /** What a launch by this profile carries, computed by the launch's own code. */
  const sampleOf = async (profileId: string | undefined): Promise<TLaunchSample | null> => {
    const profile = profileId
      ? await db().profile.findFirst({
          where: { id: profileId, institutionId: { in: subtree } },
          select: { id: true, role: true, institutionId: true, institution: { select: { name: true } }, person: { select: { name: true, email: true } } },
        })
      : null;
    if (!profile) return null;
    const rule = await resolveSharingRule({ institutionId: profile.institutionId, partner: { kind: "tool", ...tool }, role: profile.role });
    if (!rule.enabled) return null;
    // Only the lis_person_* fields are taken; the other inputs do not change them.
    const params = buildLaunchParams({
      resourceLinkId: "",
      resourceLinkTitle: "",
      userId: profile.id,
      role: profile.role,
      returnUrl: "",
      toolConsumerInstanceGuid: "",
      toolConsumerInstanceName: "",
      ...personalLaunchFields({ configuration: rule.configuration, toolId: tool.id, person: profile.person }),
    });
    return {
      person: { profileId: profile.id, role: profile.role, name: profile.person.name, email: profile.person.email, institutionName: profile.institution.name },
      fields: Object.entries(params).filter(([name]) => name.startsWith("lis_person_")),
    };
  };

  const requested = ZIdSchema.safeParse(options.profileId);
  const [main, porPerfil] = await Promise.all([
    sampleOf(requested.success ? requested.data : await findSampleProfileId({ institutionIds: subtree })),
    Promise.all(PROFILE_ROLES.map(async (role) => sampleOf(await findSampleProfileId({ institutionIds: subtree, role })))),
  ]);
  if (!main) return { status: "no_person" };
  return { status: "ok", ...main, porPerfil: porPerfil.filter((s): s is TLaunchSample => s !== null) };
}
