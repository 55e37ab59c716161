// "What this tool receives": the personal lis_person_* fields of a launch for one real person,
// computed by the launch's own code (resolveSharingRule at the person's institution, then
// personalLaunchFields and buildLaunchParams), next to the values stored in the hub.
import { db } from "@/lib/db";
import { buildLaunchParams } from "@/lib/lti/launch-params";
import { personalLaunchFields } from "@/lib/server/launch/personal-launch-fields";
import { resolveSharingRule } from "@/lib/server/privacy/resolve-sharing-rule";
import { ZIdSchema } from "@/lib/validations/management";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";
import { subtreeOf } from "./subtree-of";

export type TToolLaunchPreview =
  | { status: "no_contract" }
  | { status: "no_person" }
  | {
      status: "ok";
      person: { profileId: string; name: string; email: string | null; institutionName: string };
      /** The lis_person_* fields a launch by this person carries, in order (none: nothing personal). */
      fields: [string, string][];
    };

/**
 * The preview for one tool and one person of the institution or its descendants (the given
 * profile, or the most recently changed one). A launch happens at the person's own institution, so
 * the rule is resolved there: a school's own rule shows even when a network manager looks.
 */
export async function previewToolLaunch(options: { scope: TManagerScope; institutionId: string; toolId: string; profileId?: string }): Promise<TToolLaunchPreview> {
  const institution = requireInReach(options);
  const toolId = ZIdSchema.parse(options.toolId);
  const tool = await db().tool.findUnique({ where: { id: toolId }, select: { id: true, edtechId: true } });
  if (!tool) return { status: "no_contract" };
  const subtree = subtreeOf({ institutions: options.scope.institutions, rootId: institution.id });

  const requested = ZIdSchema.safeParse(options.profileId);
  const profileId = requested.success
    ? requested.data
    : (await db().changeEvent.findFirst({ where: { institutionId: { in: subtree }, entity: "usuario" }, orderBy: { seq: "desc" }, select: { recordId: true } }))?.recordId;
  const profile = profileId
    ? await db().profile.findFirst({
        where: { id: profileId, institutionId: { in: subtree } },
        select: { id: true, role: true, institutionId: true, institution: { select: { name: true } }, person: { select: { name: true, email: true } } },
      })
    : null;
  const rule = await resolveSharingRule({ institutionId: profile?.institutionId ?? institution.id, partner: { kind: "tool", ...tool }, role: profile?.role ?? null });
  if (!rule.enabled) return { status: "no_contract" };
  if (!profile) return { status: "no_person" };

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
    status: "ok",
    person: { profileId: profile.id, name: profile.person.name, email: profile.person.email, institutionName: profile.institution.name },
    fields: Object.entries(params).filter(([name]) => name.startsWith("lis_person_")),
  };
}
