import { createHash } from "node:crypto";
import { transaction } from "@/lib/server/db/transaction";
import { generateSecret } from "@/lib/oauth/secret";
import { encryptSecret } from "@/lib/server/crypto/secret-box";
import { mapDbError } from "@/lib/server/db/map-db-error";
import { LTI_SECRET_PURPOSE } from "@/lib/server/tools/lti-secret-purpose";
import type { TToolFieldsInput } from "@/lib/validations/developer";
import { checkLaunchCredentialsFree } from "./check-launch-credentials-free";
import { toDeveloperTool, type TDeveloperTool } from "./developer-tool";
import { findMemberTool, MEMBER_TOOL_SELECT } from "./find-member-tool";
import { parseToolInput } from "./parse-tool-input";
import { recordAudit } from "@/lib/server/audit/record-audit";

export interface UpdateToolOptions {
  actorPersonId: string;
  toolId: string;
  fields: Partial<TToolFieldsInput>;
  /** A new secret typed by the developer; empty keeps the current one. */
  sharedSecret?: string;
  /** Replace the secret with one the hub generates (ignored when sharedSecret is given). */
  generateNewSecret?: boolean;
  /** A new logo, or null to keep the current one. */
  logo: Uint8Array | null;
}

export interface TUpdatedTool {
  tool: TDeveloperTool;
  generatedSecret: string | null;
}

const TEXT_FIELDS = ["title", "shortDescription", "longDescription", "siteUrl", "launchUrl", "consumerKey"] as const;

/** Edits a tool; the secret and the logo are replaced only when new ones are sent. */
export async function updateTool({ actorPersonId, toolId, fields, sharedSecret, generateNewSecret, logo }: UpdateToolOptions): Promise<TUpdatedTool> {
  await findMemberTool({ personId: actorPersonId, toolId });
  const input = parseToolInput({ fields, sharedSecret, logo, logoRequired: false });
  const newSecret = input.sharedSecret ?? (generateNewSecret ? generateSecret(24) : null);
  try {
    const row = await transaction(async (tx) => {
      const current = await findMemberTool({ personId: actorPersonId, toolId, tx });
      await checkLaunchCredentialsFree({ tx, consumerKey: input.fields.consumerKey, launchUrl: input.fields.launchUrl, exceptToolId: toolId });
      let logoId = current.logoId;
      if (input.logo) {
        const asset = await tx.asset.create({
          data: {
            contentType: input.logo.contentType,
            dataBase64: input.logo.bytes.toString("base64"),
            sha256: createHash("sha256").update(input.logo.bytes).digest("hex"),
          },
          select: { id: true },
        });
        logoId = asset.id;
      }
      const tool = await tx.tool.update({
        where: { id: toolId },
        data: { ...input.fields, logoId, ...(newSecret ? { sharedSecretEnc: encryptSecret(newSecret, LTI_SECRET_PURPOSE) } : {}) },
        select: MEMBER_TOOL_SELECT,
      });
      // The old logo goes once nothing points at it; a new asset id also busts the immutable cache.
      if (input.logo && current.logoId && (await tx.tool.count({ where: { logoId: current.logoId } })) === 0) {
        await tx.asset.delete({ where: { id: current.logoId } });
      }
      const changed: string[] = TEXT_FIELDS.filter((name) => current[name] !== tool[name]);
      if (input.logo) changed.push("logo");
      if (newSecret) changed.push("sharedSecret");
      await recordAudit(tx, { actorPersonId, action: "tool.update", targetType: "tool", targetId: toolId, edtechId: current.edtechId, details: { changed } });
      return tool;
    });
    return { tool: toDeveloperTool(row), generatedSecret: input.sharedSecret ? null : newSecret };
  } catch (error) {
    return mapDbError(error, "Ferramenta");
  }
}
