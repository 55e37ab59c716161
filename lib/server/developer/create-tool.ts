import { createHash } from "node:crypto";
import { transaction } from "@/lib/server/db/transaction";
import { generateSecret } from "@/lib/oauth/secret";
import { encryptSecret } from "@/lib/server/crypto/secret-box";
import { mapDbError } from "@/lib/server/db/map-db-error";
import { LTI_SECRET_PURPOSE } from "@/lib/server/tools/lti-secret-purpose";
import type { TToolFieldsInput } from "@/lib/validations/developer";
import { assertEdtechMember } from "./assert-edtech-member";
import { checkLaunchCredentialsFree } from "./check-launch-credentials-free";
import { toDeveloperTool, type TDeveloperTool } from "./developer-tool";
import { MEMBER_TOOL_SELECT } from "./find-member-tool";
import { parseToolInput } from "./parse-tool-input";
import { recordAudit } from "@/lib/server/audit/record-audit";

export interface CreateToolOptions {
  actorPersonId: string;
  edtechId: string;
  fields: Partial<TToolFieldsInput>;
  /** Typed by the developer (their tool generated it); empty means "let the hub generate one". */
  sharedSecret?: string;
  logo: Uint8Array | null;
}

export interface TCreatedTool {
  tool: TDeveloperTool;
  /** Only when the hub generated the secret: shown once, then only its ciphertext exists. */
  generatedSecret: string | null;
}

/** Registers a gallery entry with its LTI credentials; the logo is stored by the hub as an Asset. */
export async function createTool({ actorPersonId, edtechId, fields, sharedSecret, logo }: CreateToolOptions): Promise<TCreatedTool> {
  await assertEdtechMember({ personId: actorPersonId, edtechId });
  const input = parseToolInput({ fields, sharedSecret, logo, logoRequired: true });
  const secret = input.sharedSecret ?? generateSecret(24);
  const storedLogo = input.logo!;
  try {
    const row = await transaction(async (tx) => {
      await assertEdtechMember({ personId: actorPersonId, edtechId, tx });
      await checkLaunchCredentialsFree({ tx, consumerKey: input.fields.consumerKey, launchUrl: input.fields.launchUrl });
      const asset = await tx.asset.create({
        data: {
          contentType: storedLogo.contentType,
          dataBase64: storedLogo.bytes.toString("base64"),
          sha256: createHash("sha256").update(storedLogo.bytes).digest("hex"),
        },
        select: { id: true },
      });
      const tool = await tx.tool.create({
        data: { edtechId, ...input.fields, logoId: asset.id, sharedSecretEnc: encryptSecret(secret, LTI_SECRET_PURPOSE) },
        select: MEMBER_TOOL_SELECT,
      });
      await recordAudit(tx, {
        actorPersonId,
        action: "tool.create",
        targetType: "tool",
        targetId: tool.id,
        edtechId,
        details: { title: tool.title, launchUrl: tool.launchUrl, consumerKey: tool.consumerKey, generatedByHub: !input.sharedSecret },
      });
      return tool;
    });
    return { tool: toDeveloperTool(row), generatedSecret: input.sharedSecret ? null : secret };
  } catch (error) {
    return mapDbError(error, "Ferramenta");
  }
}
