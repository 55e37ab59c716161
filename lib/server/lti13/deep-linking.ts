// Deep Linking 2.0 (issue #21 point 3): a teacher opens a tool's content picker for a class they
// teach (LtiDeepLinkingRequest through the same OIDC login as a launch); the tool's signed
// LtiDeepLinkingResponse comes back by form post, and its ltiResourceLink items become placements
// for that class. The response is bound to the teacher and class by the sealed `data` claim,
// because the tool's cross-site form post carries no hub session cookie (SameSite=Lax).
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { buildLtiClaims } from "@/lib/lti13/claims";
import { openMessageHint, sealMessageHint } from "@/lib/lti13/message-hint";
import { verifyDeepLinkingResponse } from "@/lib/lti13/tool-jwt";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
import { database } from "@/lib/server/db/database";
import { transaction } from "@/lib/server/db/transaction";
import { TOOL_CONSUMER_INSTANCE_NAME, type TBuiltLaunch } from "@/lib/server/launch/build-launch";
import { rememberNonce } from "@/lib/server/lti-nonces/remember-nonce";
import { pairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { resolveSharingRule } from "@/lib/server/privacy/resolve-sharing-rule";
import type { TActingProfile } from "@/lib/server/tools/acting-profile";
import { signLti13IdToken } from "./sign-lti13-id-token";
import { lti13LoginInitiation } from "./login-initiation";
import { messageHintKey } from "./message-hint-key";
import { LTI13_PATHS } from "./platform-facts";
import { toolKeys } from "./tool-keys";

/** How long the teacher has to pick content before the sealed `data` expires. */
const PICKER_SECONDS = 60 * 60;

interface TPickerRow {
  toolId: string;
  toolTitle: string;
  edtechId: string;
  clientId: string;
  deploymentId: string;
  loginUrl: string;
  deepLinkingUrl: string | null;
  jwksUrl: string | null;
  publicJwk: unknown;
  classId: string;
  className: string;
  periodName: string;
  institutionId: string;
  teaches: boolean;
}

// The tool (active, LTI 1.3) and the class, and whether the profile teaches that class.
const PICKER_SQL = `
SELECT t.id AS "toolId", t.title AS "toolTitle", t."edtechId", l."clientId", l."deploymentId", l."loginUrl", l."deepLinkingUrl",
       l."jwksUrl", l."publicJwk", c.id AS "classId", c.name AS "className", pd.name AS "periodName", c."institutionId",
       EXISTS (SELECT 1 FROM "SubjectTeacher" st WHERE st."classId" = c.id AND st."teacherId" = $3::uuid) AS teaches
  FROM "Tool" t JOIN "ToolLti13" l ON l."toolId" = t.id, "Class" c JOIN "Period" pd ON pd.id = c."periodId"
 WHERE t.id = $1::uuid AND c.id = $2::uuid AND t.status = 'active'`;

async function pickerFor(options: { toolId: string; classId: string; profile: TActingProfile }): Promise<TPickerRow> {
  const notFound = new AppError("not_found", "Ferramenta ou turma não encontrada.");
  if (!isUuidText(options.toolId) || !isUuidText(options.classId)) throw notFound;
  const [row] = await database().sql.query<TPickerRow>(PICKER_SQL, [options.toolId, options.classId, options.profile.id], { prepared: true });
  // Only the class's own teacher, at the class's school, and only a tool with a content picker.
  if (!row || !row.deepLinkingUrl || options.profile.role !== "professor" || !row.teaches || row.institutionId !== options.profile.institutionId) throw notFound;
  const rule = await resolveSharingRule({ institutionId: row.institutionId, partner: { kind: "tool", id: row.toolId, edtechId: row.edtechId }, role: options.profile.role });
  if (!rule.enabled) throw new AppError("forbidden", "A escola não compartilha dados com este parceiro.");
  return row;
}

/** The login initiation form that opens the tool's content picker for the class. */
export async function startDeepLinking(options: { toolId: string; classId: string; profile: TActingProfile }): Promise<TBuiltLaunch> {
  const row = await pickerFor(options);
  const ids = await pairwiseIds({ kind: "tool", id: row.toolId });
  return lti13LoginInitiation({
    placementId: row.classId,
    profileId: options.profile.id,
    toolTitle: row.toolTitle,
    registration: { clientId: row.clientId, deploymentId: row.deploymentId, loginUrl: row.loginUrl, targetLinkUri: row.deepLinkingUrl! },
    loginHint: ids.toPartner(options.profile.id),
    messageType: "LtiDeepLinkingRequest",
  });
}

/** The LtiDeepLinkingRequest id_token (called by the authorization endpoint once the request is checked). */
export async function deepLinkingIdToken(options: { classId: string; profile: TActingProfile; toolId: string; clientId: string; nonce: string; sub: string; now: Date }): Promise<{ token: string; toolTitle: string }> {
  const row = await pickerFor({ toolId: options.toolId, classId: options.classId, profile: options.profile });
  const base = env().HUB_BASE_URL;
  const nowSeconds = Math.floor(options.now.getTime() / 1000);
  const data = sealMessageHint({ t: row.classId, p: options.profile.id, c: row.clientId, m: "LtiDeepLinkingRequest", e: nowSeconds + PICKER_SECONDS }, messageHintKey());
  const claims = buildLtiClaims({
    messageType: "LtiDeepLinkingRequest",
    deploymentId: row.deploymentId,
    targetLinkUri: row.deepLinkingUrl!,
    role: options.profile.role,
    context: { id: row.classId, label: row.className, title: `${row.className} · ${row.periodName}` },
    platform: { guid: new URL(base).host, name: TOOL_CONSUMER_INSTANCE_NAME },
    returnUrl: `${base}/`,
    deepLinking: { returnUrl: `${base}${LTI13_PATHS.deepLinkingReturn}`, data },
  });
  const token = await signLti13IdToken({ claims, clientId: row.clientId, sub: options.sub, nonce: options.nonce, now: options.now });
  return { token, toolTitle: row.toolTitle };
}

export interface TDeepLinkingResult {
  toolTitle: string;
  className: string;
  placementIds: string[];
  message: string | null;
}

/**
 * The tool's LtiDeepLinkingResponse: verified against the tool's keys (iss = its client_id, aud =
 * the hub, RS256, not expired, nonce single use, its deployment), bound by the sealed `data` to the
 * teacher and class it was asked for; each ltiResourceLink item becomes a placement for the class.
 */
export async function receiveDeepLinking(options: { jwt: string; now?: Date }): Promise<TDeepLinkingResult> {
  const now = options.now ?? new Date();
  const refused = (rule: string) => new AppError("bad_request", `Resposta de deep linking recusada (${rule}).`);
  let unverifiedIss: unknown;
  try {
    unverifiedIss = JSON.parse(Buffer.from(options.jwt.split(".")[1] ?? "", "base64url").toString("utf8")).iss;
  } catch {
    throw refused("signatureValid");
  }
  const clientId = typeof unverifiedIss === "string" && isUuidText(unverifiedIss) ? unverifiedIss : null;
  if (!clientId) throw refused("issuerIsClient");
  const [registration] = await database().sql.query<{ toolId: string; deploymentId: string; jwksUrl: string | null; publicJwk: unknown }>(
    `SELECT "toolId", "deploymentId", "jwksUrl", "publicJwk" FROM "ToolLti13" WHERE "clientId" = $1::uuid`,
    [clientId],
  );
  if (!registration) throw refused("issuerIsClient");
  const verified = await verifyDeepLinkingResponse(options.jwt, {
    keys: await toolKeys(registration),
    clientId,
    audience: env().HUB_BASE_URL,
    deploymentId: registration.deploymentId,
    now,
  });
  if (!verified.ok) throw refused(verified.rule);
  const data = verified.data ? openMessageHint(verified.data, messageHintKey(), Math.floor(now.getTime() / 1000)) : null;
  if (!data || data.c !== clientId || data.m !== "LtiDeepLinkingRequest") throw refused("dataValid");
  if (!(await rememberNonce({ consumerKey: `lti13-dl:${clientId}`, nonce: verified.nonce }))) throw refused("nonceUnused");
  const [teacher] = await database().sql.query<TActingProfile & { personId: string }>(`SELECT id, role, "institutionId", "personId" FROM "Profile" WHERE id = $1::uuid`, [data.p]);
  if (!teacher) throw refused("dataValid");
  const profile: TActingProfile = { id: teacher.id, role: teacher.role, institutionId: teacher.institutionId };
  // The teacher must still teach the class, and the tool still be available there.
  const row = await pickerFor({ toolId: registration.toolId, classId: data.t, profile });
  const placementIds = await transaction(async (tx) => {
    const ids: string[] = [];
    for (const item of verified.items.slice(0, 20)) {
      const placement = await tx.placement.create({
        data: { toolId: row.toolId, institutionId: row.institutionId, classId: row.classId, roles: [], title: item.title, customParams: item.custom },
        select: { id: true },
      });
      ids.push(placement.id);
      await recordAudit(tx, {
        actorPersonId: teacher.personId,
        action: "placement.create",
        targetType: "placement",
        targetId: placement.id,
        edtechId: row.edtechId,
        institutionId: row.institutionId,
        details: { toolId: row.toolId, classId: row.classId, via: "lti13_deep_linking" },
      });
    }
    return ids;
  });
  return { toolTitle: row.toolTitle, className: row.className, placementIds, message: verified.message };
}
