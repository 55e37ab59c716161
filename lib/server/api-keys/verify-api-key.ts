import { database } from "@/lib/server/db/database";
import { AppError } from "@/lib/errors";
import { hashSecret } from "@/lib/oauth/secret";

/** An API key as lists show it: never the key or its hash. */
export interface TApiKeySummary {
  id: string;
  applicationId: string;
  name: string;
  prefix: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

export interface TVerifiedApiKey {
  apiKeyId: string;
  applicationId: string;
  edtechId: string;
}

// Generated keys look like hub_<8 hex>_<43 base64url> (create-api-key.ts), but the demo seed's
// documented key is the literal `demo-api-key`: only refuse, without a query, what no key can be.
const KEY_SHAPE = /^[\x21-\x7e]{8,200}$/;
/** lastUsedAt is informative: writing it at most once a minute keeps reads from writing. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Spec: a missing, invalid or revoked key is 401 with `{"message":"Unauthorized"}`. */
export async function verifyApiKey(options: { key: string | null | undefined; now?: Date }): Promise<TVerifiedApiKey> {
  const { key } = options;
  if (!key || !KEY_SHAPE.test(key)) throw new AppError("unauthorized", "Unauthorized");
  // Raw SQL: this runs on every Data API request, and one indexed lookup through the driver costs
  // a fraction of a Prisma query (docs/performance.md).
  const [row] = await database().sql.query<{ id: string; applicationId: string; edtechId: string; revokedAt: Date | null; lastUsedAt: Date | null }>(
    `SELECT k.id, k."applicationId", a."edtechId", k."revokedAt", k."lastUsedAt"
       FROM "ApiKey" k JOIN "OAuthApplication" a ON a.id = k."applicationId" WHERE k."keyHash" = $1`,
    [hashSecret(key)],
    { prepared: true },
  );
  if (!row || row.revokedAt) throw new AppError("unauthorized", "Unauthorized");
  const now = options.now ?? new Date();
  const lastUsed = row.lastUsedAt ? new Date(row.lastUsedAt).getTime() : 0;
  if (now.getTime() - lastUsed >= LAST_USED_RESOLUTION_MS) {
    await database().sql.query(`UPDATE "ApiKey" SET "lastUsedAt" = $2 WHERE id = $1`, [row.id, now], { prepared: true });
  }
  return { apiKeyId: row.id, applicationId: row.applicationId, edtechId: row.edtechId };
}
