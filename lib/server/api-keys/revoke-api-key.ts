import { db } from "@/lib/server/db/database";
import { AppError } from "@/lib/errors";
import type { TApiKeySummary } from "./verify-api-key";
import { isUuidText } from "@/lib/server/crypto/uuid-permutation";

/**
 * Revokes an application's key; the next request with it is refused (verifyApiKey reads the row
 * on every request, nothing caches it). Revoking a revoked key keeps its first revocation time.
 */
export async function revokeApiKey(options: { applicationId: string; apiKeyId: string; now?: Date }): Promise<TApiKeySummary> {
  const where = { id: options.apiKeyId, applicationId: options.applicationId };
  if (!isUuidText(options.apiKeyId) || !isUuidText(options.applicationId)) throw new AppError("not_found", "Chave não encontrada.");
  await db().apiKey.updateMany({ where: { ...where, revokedAt: null }, data: { revokedAt: options.now ?? new Date() } });
  const apiKey = await db().apiKey.findFirst({
    where,
    select: { id: true, applicationId: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
  if (!apiKey) throw new AppError("not_found", "Chave não encontrada.");
  return apiKey;
}
