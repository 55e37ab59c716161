// "Meus dados" (issue #14, point 6): which partners receive which of a person's attributes through
// one of her profiles. Every answer comes from the one rule engine (resolveSharingRule), called in
// one place below with the profile, so a per-role rule applies here as in every channel.
import { db } from "@/lib/server/db/database";
import type { Role } from "@/lib/generated/prisma/client";
import { LAUNCH_ATTRIBUTES } from "@/lib/server/launch/personal-launch-fields";
import { linkedEdtechsUp } from "@/lib/server/management/sharing-rules";
import { findUsablePlacementIds } from "@/lib/server/tools/find-usable-placement-ids";
import type { TPersonalAttribute } from "@/lib/validations/data-api";
import { resolveSharingRule, type TSharingPartner, type TSharingRule } from "./resolve-sharing-rule";

export interface TSharedAttribute {
  attribute: TPersonalAttribute;
  /** "anonimizado": the partner receives a pseudonym, never the value. */
  treatment: "permitido" | "anonimizado";
}

export interface TPartnerSharing {
  kind: "application" | "tool";
  id: string;
  name: string;
  edtechName: string;
  /** The attributes the partner receives about this profile, in canonical order (may be empty). */
  attributes: TSharedAttribute[];
}

export interface TSharingProfile {
  id: string;
  institutionId: string;
  role: Role;
}

/** The one call into the rule engine for a person's profile. */
function ruleFor(profile: TSharingProfile, partner: TSharingPartner): Promise<TSharingRule> {
  return resolveSharingRule({ institutionId: profile.institutionId, partner, role: profile.role });
}

function sharedAttributes(rule: TSharingRule, channelAttributes: readonly TPersonalAttribute[] | null): TSharedAttribute[] {
  if (!rule.enabled) return [];
  return rule.configuration.allowed
    .filter((attribute) => channelAttributes === null || channelAttributes.includes(attribute))
    .map((attribute) => ({ attribute, treatment: rule.configuration.anonymized.includes(attribute) ? "anonimizado" : "permitido" }));
}

/**
 * The partners that receive data about this profile: the OAuth applications the institution
 * enables (sign-in, user info and the Data API, which all follow the same rule), and the tools the
 * profile can open (a launch carries at most name and e-mail). A partner without a contract, an
 * application not enabled, or a tool the profile cannot open receives nothing and is not listed.
 */
export async function listPartnersForProfile(options: { profile: TSharingProfile }): Promise<TPartnerSharing[]> {
  const { profile } = options;
  const [{ edtechIds }, placementIds] = await Promise.all([linkedEdtechsUp(profile.institutionId), findUsablePlacementIds({ profile })]);
  const [applications, placements] = await Promise.all([
    db().oAuthApplication.findMany({ where: { edtechId: { in: edtechIds } }, select: { id: true, name: true, edtechId: true, edtech: { select: { name: true } } } }),
    db().placement.findMany({
      where: { id: { in: placementIds } },
      select: { tool: { select: { id: true, title: true, edtechId: true, edtech: { select: { name: true } } } } },
    }),
  ]);
  const tools = [...new Map(placements.map((p) => [p.tool.id, p.tool])).values()];
  const candidates = [
    ...applications.map((a) => ({ partner: { kind: "application" as const, id: a.id, edtechId: a.edtechId }, name: a.name, edtechName: a.edtech.name })),
    ...tools.map((t) => ({ partner: { kind: "tool" as const, id: t.id, edtechId: t.edtechId }, name: t.title, edtechName: t.edtech.name })),
  ];
  const resolved = await Promise.all(candidates.map(async (c) => ({ ...c, rule: await ruleFor(profile, c.partner) })));
  return resolved
    .filter((c) => c.rule.enabled)
    .map((c) => ({
      kind: c.partner.kind,
      id: c.partner.id,
      name: c.name,
      edtechName: c.edtechName,
      attributes: sharedAttributes(c.rule, c.partner.kind === "tool" ? LAUNCH_ATTRIBUTES : null),
    }))
    .sort((a, b) => a.name.localeCompare(b.name, "pt-BR") || a.kind.localeCompare(b.kind));
}
