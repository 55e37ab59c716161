// A tool's LTI 1.3 registration as the developer area reads and writes it (docs/decisions/028).
import { AppError } from "@/lib/errors";
import { Prisma } from "@/lib/generated/prisma/client";
import { db } from "@/lib/server/db/database";
import { transaction } from "@/lib/server/db/transaction";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { findMemberTool } from "@/lib/server/developer/find-member-tool";
import { ZLti13RegistrationSchema } from "@/lib/validations/lti13";
import { platformFacts, type TPlatformFacts } from "./platform-facts";

export interface TLti13Registration {
  loginUrl: string;
  targetLinkUri: string;
  redirectUris: string[];
  jwksUrl: string | null;
  publicJwk: object | null;
  deepLinkingUrl: string | null;
  platform: TPlatformFacts;
}

const SELECT = {
  clientId: true,
  deploymentId: true,
  loginUrl: true,
  targetLinkUri: true,
  redirectUris: true,
  jwksUrl: true,
  publicJwk: true,
  deepLinkingUrl: true,
} as const;

function toRegistration(row: { clientId: string; deploymentId: string; loginUrl: string; targetLinkUri: string; redirectUris: string[]; jwksUrl: string | null; publicJwk: unknown; deepLinkingUrl: string | null }): TLti13Registration {
  return {
    loginUrl: row.loginUrl,
    targetLinkUri: row.targetLinkUri,
    redirectUris: row.redirectUris,
    jwksUrl: row.jwksUrl,
    publicJwk: (row.publicJwk as object | null) ?? null,
    deepLinkingUrl: row.deepLinkingUrl,
    platform: platformFacts(row),
  };
}

/** The tool's LTI 1.3 registration, or null while it launches with LTI 1.0 (member check first). */
export async function getLti13Registration({ personId, toolId }: { personId: string; toolId: string }): Promise<TLti13Registration | null> {
  await findMemberTool({ personId, toolId });
  const row = await db().toolLti13.findUnique({ where: { toolId }, select: SELECT });
  return row ? toRegistration(row) : null;
}

/**
 * Creates or replaces the registration: from then on the tool launches with LTI 1.3. The
 * client_id and deployment_id the hub assigned are kept across edits (the tool has them pasted).
 */
export async function saveLti13Registration(options: { actorPersonId: string; toolId: string; fields: Record<string, unknown> }): Promise<TLti13Registration> {
  const tool = await findMemberTool({ personId: options.actorPersonId, toolId: options.toolId });
  const parsed = ZLti13RegistrationSchema.safeParse(options.fields);
  if (!parsed.success) {
    const errors: Record<string, string> = {};
    for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "_")] ??= issue.message;
    throw new AppError("bad_request", "Revise os campos destacados.", errors);
  }
  const data = {
    ...parsed.data,
    jwksUrl: parsed.data.jwksUrl ?? null,
    deepLinkingUrl: parsed.data.deepLinkingUrl ?? null,
    publicJwk: parsed.data.publicJwk ?? Prisma.DbNull,
  };
  const row = await transaction(async (tx) => {
    const saved = await tx.toolLti13.upsert({
      where: { toolId: tool.id },
      create: { toolId: tool.id, ...data },
      update: data,
      select: SELECT,
    });
    await recordAudit(tx, { actorPersonId: options.actorPersonId, action: "tool.update", targetType: "tool", targetId: tool.id, edtechId: tool.edtechId, details: { changed: ["lti13"] } });
    return saved;
  });
  return toRegistration(row);
}

/** Back to LTI 1.0: the registration goes (its client_id with it). */
export async function removeLti13Registration(options: { actorPersonId: string; toolId: string }): Promise<void> {
  const tool = await findMemberTool({ personId: options.actorPersonId, toolId: options.toolId });
  await transaction(async (tx) => {
    const { count } = await tx.toolLti13.deleteMany({ where: { toolId: tool.id } });
    if (count > 0) {
      await recordAudit(tx, { actorPersonId: options.actorPersonId, action: "tool.update", targetType: "tool", targetId: tool.id, edtechId: tool.edtechId, details: { changed: ["lti13_removed"] } });
    }
  });
}
