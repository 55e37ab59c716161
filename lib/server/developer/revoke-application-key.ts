import { db } from "@/lib/server/db/database";
import { AppError } from "@/lib/errors";
import { revokeApiKey } from "@/lib/server/api-keys/revoke-api-key";
import type { TApiKeySummary } from "@/lib/server/api-keys/verify-api-key";
import { ZIdSchema } from "@/lib/validations/developer";
import { findMemberApplication } from "./find-member-application";
import { transaction } from "@/lib/server/db/transaction";
import { recordAudit } from "@/lib/server/audit/record-audit";

export interface RevokeApplicationKeyOptions {
  actorPersonId: string;
  applicationId: string;
  apiKeyId: string;
}

/**
 * Revokes a key of one of the person's applications. verifyApiKey reads the row on every request,
 * so the very next Data API call with it is a 401. Revoking a revoked key changes nothing and is
 * not logged again.
 */
export async function revokeApplicationKey({ actorPersonId, applicationId, apiKeyId }: RevokeApplicationKeyOptions): Promise<TApiKeySummary> {
  const application = await findMemberApplication({ personId: actorPersonId, applicationId });
  if (!ZIdSchema.safeParse(apiKeyId).success) throw new AppError("not_found", "Chave não encontrada.");
  const before = await db().apiKey.findFirst({ where: { id: apiKeyId, applicationId }, select: { revokedAt: true } });
  if (!before) throw new AppError("not_found", "Chave não encontrada.");
  const apiKey = await revokeApiKey({ applicationId, apiKeyId });
  if (!before.revokedAt) {
    await transaction((tx) =>
      recordAudit(tx, {
        actorPersonId,
        action: "api_key.revoke",
        targetType: "api_key",
        targetId: apiKey.id,
        edtechId: application.edtechId,
        details: { applicationId, prefix: apiKey.prefix },
      }),
    );
  }
  return apiKey;
}
