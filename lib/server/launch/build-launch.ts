import { z } from "zod";
import { database } from "@/lib/server/db/database";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { buildLaunchParams, type LaunchContextInput } from "@/lib/lti/launch-params";
import { signLaunch } from "@/lib/lti/sign-launch";
import { decryptSecret } from "@/lib/server/crypto/secret-box";
import { logLaunch } from "@/lib/server/audit/log-launch";
import { pairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { loadIdentityRoots } from "@/lib/server/crypto/identity-root";
import { ruleRowsColumnSql, sharingRuleOf, type TRuleRow } from "@/lib/server/privacy/resolve-sharing-rule";
import { LTI_SECRET_PURPOSE } from "@/lib/server/tools/lti-secret-purpose";
import type { TActingProfile } from "@/lib/server/tools/acting-profile";
import { usablePlacementCondition } from "@/lib/server/tools/find-usable-placement-ids";
import { personalLaunchFields } from "./personal-launch-fields";
import type { TBuiltLaunch } from "./built-launch";
import { lti13LoginInitiation, type TLti13LaunchRegistration } from "@/lib/server/lti13/login-initiation";

export const TOOL_CONSUMER_INSTANCE_NAME = "Hub Educacional";
export const LAUNCH_REFUSED = "A escola não compartilha mais dados com este parceiro.";

export type { TBuiltLaunch } from "./built-launch";

export interface BuildLaunchOptions {
  placementId: string;
  profile: TActingProfile;
  /** Unix seconds and nonce; injectable so tests are deterministic. */
  timestamp?: number;
  nonce?: string;
}

const ZPlacementIdSchema = z.guid();

export interface TPlacementRow {
  id: string;
  title: string | null;
  customParams: unknown;
  institutionId: string;
  class: { id: string; name: string; periodName: string } | null;
  tool: { id: string; edtechId: string; title: string; launchUrl: string; consumerKey: string; sharedSecretEnc: string };
  person: { name: string; email: string | null };
  ruleRows: TRuleRow[];
  /** The tool's LTI 1.3 registration, when it launches with LTI 1.3 (issue #21). */
  lti13: TLti13LaunchRegistration | null;
}

/** What the placement statement is asked about: SQL expressions for the placement and the acting profile. */
export interface TPlacementRefs {
  placement: string;
  profile: string;
  institution: string;
  role: string;
}

// One prepared statement (docs/decisions/021): the placement if the profile may use it (the
// gallery's own condition), its tool and class, the profile's person, and the tool's sharing
// rule rows at the placement's institution (the rule engine's own sub-select).
export function placementSql(refs: TPlacementRefs): string {
  return `
SELECT p.id, p.title, p."customParams", p."institutionId",
       ${ruleRowsColumnSql("tool", { institution: `p."institutionId"`, edtech: `t."edtechId"`, partner: "t.id" })} AS "ruleRows",
       CASE WHEN c.id IS NULL THEN NULL ELSE json_build_object('id', c.id, 'name', c.name, 'periodName', pd.name) END AS class,
       json_build_object('id', t.id, 'edtechId', t."edtechId", 'title', t.title, 'launchUrl', t."launchUrl",
                         'consumerKey', t."consumerKey", 'sharedSecretEnc', t."sharedSecretEnc") AS tool,
       json_build_object('name', pe.name, 'email', pe.email) AS person,
       (SELECT json_build_object('clientId', l."clientId", 'deploymentId', l."deploymentId", 'loginUrl', l."loginUrl", 'targetLinkUri', l."targetLinkUri")
          FROM "ToolLti13" l WHERE l."toolId" = t.id) AS lti13
  FROM "Placement" p
  JOIN "Tool" t ON t.id = p."toolId"
  LEFT JOIN "Class" c ON c.id = p."classId"
  LEFT JOIN "Period" pd ON pd.id = c."periodId"
  JOIN "Profile" pr ON pr.id = ${refs.profile}
  JOIN "Person" pe ON pe.id = pr."personId"
 WHERE p.id = ${refs.placement}
   AND ${usablePlacementCondition({ institution: refs.institution, role: refs.role, profile: refs.profile })}`;
}

/** The placement statement with its four parameters: placement, profile, institution, role. */
export const PLACEMENT_SQL = placementSql({ placement: "$1::uuid", profile: "$2::uuid", institution: "$3::uuid", role: `$4::"Role"` });

/** Whether `placementId` can name a placement at all; anything else is "not found" without a query. */
export function isPlacementId(placementId: string): boolean {
  return ZPlacementIdSchema.safeParse(placementId).success;
}

/** The placement `placementId` names if `profile` may use it (PLACEMENT_SQL), else null; no query for a malformed id. */
export async function findPlacement(placementId: string, profile: TActingProfile): Promise<TPlacementRow | null> {
  if (!isPlacementId(placementId)) return null;
  const [row] = await database().sql.query<TPlacementRow>(PLACEMENT_SQL, [placementId, profile.id, profile.institutionId, profile.role], { prepared: true });
  return row ?? null;
}

/** Only scalar values make sense as form fields; anything else in the JSON is ignored. */
export const ZCustomParamsSchema = z
  .record(z.string(), z.unknown())
  .catch({})
  .transform((raw) => {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(raw)) {
      if (typeof value === "string" || typeof value === "number" || typeof value === "boolean") out[name] = String(value);
    }
    return out;
  });

/**
 * The signed LTI 1.0 basic launch of a placement for the acting profile (DESIGN.md "LTI launch").
 * A placement the profile may not use is "not found", so its existence is not revealed and no
 * signed form is ever produced for it. A placement the institution no longer shares data with
 * (its edtech's contract removed: resolveSharingRule) is "forbidden", with no signed form either.
 */
export async function buildLaunch(options: BuildLaunchOptions): Promise<TBuiltLaunch> {
  return launchOf(await findPlacement(options.placementId, options.profile), options);
}

/**
 * buildLaunch from the placement's row as PLACEMENT_SQL reads it for the profile (null: none it
 * may use); the launch page reads the row with the session's user (read-launch.ts).
 */
export async function launchOf(placement: TPlacementRow | null, { profile, timestamp, nonce }: Omit<BuildLaunchOptions, "placementId">): Promise<TBuiltLaunch> {
  if (!placement) throw new AppError("not_found", "Ferramenta não encontrada.");
  // The rule engine's duty (resolveSharingRule): the roots the pseudonyms and pairwise ids come from.
  await loadIdentityRoots();
  const { tool } = placement;
  const sharing = sharingRuleOf(placement.ruleRows, "tool", profile.role);
  const ids = await pairwiseIds({ kind: "tool", id: tool.id });
  if (!sharing.enabled) throw new AppError("forbidden", LAUNCH_REFUSED);
  // LTI 1.3 (issue #21): the form starts the tool's OIDC login instead; claims leave at /lti13/authorize.
  if (placement.lti13) return lti13LoginInitiation({ placementId: placement.id, profileId: profile.id, toolTitle: tool.title, registration: placement.lti13, loginHint: ids.toPartner(profile.id) });

  const base = env().HUB_BASE_URL;
  const home = `${base}/`;
  const context: LaunchContextInput | undefined = placement.class
    ? { id: placement.class.id, title: `${placement.class.name} · ${placement.class.periodName}`, label: placement.class.name }
    : undefined;
  const params = buildLaunchParams({
    resourceLinkId: placement.id,
    resourceLinkTitle: placement.title ?? tool.title,
    // The tool's own id for the profile (pairwise): not the one its edtech's application gets.
    userId: ids.toPartner(profile.id),
    role: profile.role,
    context,
    returnUrl: home,
    toolConsumerInstanceGuid: new URL(base).host,
    toolConsumerInstanceName: TOOL_CONSUMER_INSTANCE_NAME,
    custom: ZCustomParamsSchema.parse(placement.customParams),
    ...personalLaunchFields({ configuration: sharing.configuration, toolId: tool.id, person: placement.person }),
  });
  const signed = signLaunch({
    launchUrl: tool.launchUrl,
    consumerKey: tool.consumerKey,
    consumerSecret: decryptSecret(tool.sharedSecretEnc, LTI_SECRET_PURPOSE),
    params,
    callbackUrl: home,
    timestamp,
    nonce,
  });
  logLaunch({ toolId: tool.id, profile, fields: signed.fields });
  return { action: signed.action, fields: signed.fields, toolOrigin: new URL(tool.launchUrl).origin, toolTitle: tool.title };
}
