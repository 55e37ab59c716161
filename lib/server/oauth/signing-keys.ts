// Token signing keys: created on first use, rotated every KEY_ROTATION_SECONDS, and published in
// the JWKS until every token they signed has expired (docs/decisions/005-oauth-tokens.md).
// Private keys are encrypted at rest with the hub secret. Every read goes to the database, so a
// key created or rotated by another instance is seen at once; only decrypted keys are cached
// (by kid, which is the key's thumbprint and therefore immutable).
import type { JWK } from "jose";
import { db } from "@/lib/server/db/database";
import type { SigningKey as SigningKeyRow } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { generateSigningKey, publicJwks, SIGNING_ALG, type SigningKey, type VerifyAccessTokenOptions } from "@/lib/oauth/jwt";
import { decryptSecret, encryptSecret } from "@/lib/server/crypto/secret-box";
import { KEY_ROTATION_SECONDS, RETIRED_KEY_PUBLISH_SECONDS } from "./lifetimes";

/** secret-box purpose of the private keys (re-sealed by reseal-secrets.ts after a rotation). */
export const SIGNING_KEY_PURPOSE = "oauth-signing-key";
const PURPOSE = SIGNING_KEY_PURPOSE;
const decrypted = new Map<string, SigningKey>();

function toSigningKey(row: SigningKeyRow): SigningKey {
  let key = decrypted.get(row.kid);
  if (!key) {
    // One object per kid: lib/oauth/jwt caches the imported CryptoKey per object.
    key = {
      kid: row.kid,
      alg: SIGNING_ALG,
      publicJwk: row.publicJwk as JWK,
      privateJwk: JSON.parse(decryptSecret(row.privateJwkEnc, PURPOSE)) as JWK,
    };
    decrypted.set(row.kid, key);
  }
  return key;
}

const ageSeconds = (row: SigningKeyRow, now: Date) => (now.getTime() - row.createdAt.getTime()) / 1000;

/** Creates a key and retires every other active one, in one transaction. */
export async function rotateSigningKey({ now = new Date() }: { now?: Date } = {}): Promise<SigningKey> {
  const key = await generateSigningKey();
  const [row] = await db().$transaction([
    db().signingKey.create({
      data: {
        kid: key.kid,
        alg: key.alg,
        publicJwk: key.publicJwk as object,
        privateJwkEnc: encryptSecret(JSON.stringify(key.privateJwk), PURPOSE),
        createdAt: now,
      },
    }),
    db().signingKey.updateMany({ where: { retiredAt: null, kid: { not: key.kid } }, data: { retiredAt: now } }),
  ]);
  return toSigningKey(row);
}

/**
 * The key to sign with now. Two instances rotating at the same moment both create a key; each
 * retires the other's, the newest active one wins from then on, and both stay published, so
 * every token either signed still verifies.
 */
export async function getSigningKey({ now = new Date() }: { now?: Date } = {}): Promise<SigningKey> {
  const active = await db().signingKey.findFirst({ where: { retiredAt: null }, orderBy: { createdAt: "desc" } });
  if (active && ageSeconds(active, now) < KEY_ROTATION_SECONDS) {
    const key = usableKey(active);
    if (key) return key;
  }
  return rotateSigningKey({ now });
}

/**
 * The decrypted key, or null when it cannot be decrypted (HUB_SECRET was changed): then a new
 * key takes over instead of every sign-in failing; the old one stays published until it ages out.
 */
function usableKey(row: SigningKeyRow): SigningKey | null {
  try {
    return toSigningKey(row);
  } catch {
    console.error(`Signing key ${row.kid} cannot be decrypted with the current HUB_SECRET; rotating.`);
    return null;
  }
}

/**
 * The public keys that verify tokens now (what /.well-known/jwks.json publishes): the active ones
 * and those retired recently enough. Only public members leave the row; nothing is decrypted.
 */
export async function listPublicJwks({ now = new Date() }: { now?: Date } = {}): Promise<JWK[]> {
  const cutoff = new Date(now.getTime() - RETIRED_KEY_PUBLISH_SECONDS * 1000);
  const rows = await db().signingKey.findMany({
    where: { OR: [{ retiredAt: null }, { retiredAt: { gt: cutoff } }] },
    orderBy: { createdAt: "desc" },
  });
  const keys: SigningKey[] = rows.map((row) => ({ kid: row.kid, alg: SIGNING_ALG, publicJwk: row.publicJwk as JWK, privateJwk: {} }));
  return publicJwks(keys).keys;
}

/** How the hub verifies a token it issued, at `now`: its own issuer and its current public keys. */
export function ourTokenVerification(now: Date): VerifyAccessTokenOptions {
  return { issuer: env().HUB_BASE_URL, getPublicKeys: () => listPublicJwks({ now }), now };
}
