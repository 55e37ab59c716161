import { randomBytes } from "node:crypto";
import { z } from "zod";
import { db } from "@/lib/server/db/database";
import { AppError } from "@/lib/errors";
import { generateSecret, hashSecret } from "@/lib/oauth/secret";
import type { TApiKeySummary } from "./verify-api-key";

const ZCreateApiKeySchema = z.object({
  applicationId: z.guid({ message: "Aplicação inválida" }),
  name: z.string().trim().max(100, "Nome longo demais").default(""),
});

/**
 * Creates a Data API key for an application. The key (`hub_<8 hex>_<43 base64url>`, 256 random
 * bits) is returned once and never stored: the row keeps its SHA-256 and the `hub_<8 hex>` prefix
 * that lists show.
 */
export async function createApiKey(input: z.input<typeof ZCreateApiKeySchema>): Promise<{ apiKey: TApiKeySummary; key: string }> {
  const data = ZCreateApiKeySchema.parse(input);
  const application = await db().oAuthApplication.findUnique({ where: { id: data.applicationId }, select: { id: true } });
  if (!application) throw new AppError("not_found", "Aplicação não encontrada.");
  const prefix = `hub_${randomBytes(4).toString("hex")}`;
  const key = `${prefix}_${generateSecret(32)}`;
  const apiKey = await db().apiKey.create({
    data: { applicationId: data.applicationId, name: data.name, prefix, keyHash: hashSecret(key) },
    select: { id: true, applicationId: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
  return { apiKey, key };
}
