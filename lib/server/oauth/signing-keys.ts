// Token signing keys: created on first use, rotated every KEY_ROTATION_SECONDS, and published in
// the JWKS until every token they signed has expired (docs/decisions/005-oauth-tokens.md).
// Private keys are encrypted at rest with the hub secret. Decrypted keys are cached by kid (the
// key's thumbprint, immutable). The active key and the published list are each re-read at most
// every KEY_CACHE_MS (docs/decisions/021): a key another instance rotated in is used here up to
// that much later, which is safe because a retired key stays published long after; a token
// whose kid is not in the cached list makes the list be read again at once. All of it is kept per
// database handle: a process serves one database, a test file opens its own.
import type { JWK } from "jose";
import { database, type Database } from "@/lib/server/db/database";
import type { SigningKey as SigningKeyRow } from "@/lib/generated/prisma/client";
import { env } from "@/lib/env";
import { generateSigningKey, publicJwks, SIGNING_ALG, type SigningKey, type VerifyAccessTokenOptions } from "@/lib/oauth/jwt";
import { decryptSecret, encryptSecret } from "@/lib/server/crypto/secret-box";
import { transaction } from "@/lib/server/db/transaction";
import { KEY_ROTATION_SECONDS, RETIRED_KEY_PUBLISH_SECONDS } from "./lifetimes";

/** secret-box purpose of the private keys (re-sealed by reseal-secrets.ts after a rotation). */
export const SIGNING_KEY_PURPOSE = "oauth-signing-key";
const PURPOSE = SIGNING_KEY_PURPOSE;

/** What this process remembers of one database's keys (a process serves one; a test file opens its own). */
interface TKeyCache {
  /** Decrypted keys by kid. */
  decrypted: Map<string, SigningKey>;
  active?: { key: SigningKey; createdAt: Date; readAt: number };
  published?: { rows: Array<Pick<SigningKeyRow, "kid" | "publicJwk" | "createdAt" | "retiredAt">>; readAt: number };
  /** The same array for the same keys, so lib/oauth/jwt imports each key once. */
  publishedLists: Map<string, JWK[]>;
}
const caches = new WeakMap<Database, TKeyCache>();
function keyCache(): TKeyCache {
  const of = database();
  let cache = caches.get(of);
  if (!cache) {
    cache = { decrypted: new Map(), publishedLists: new Map() };
    caches.set(of, cache);
  }
  return cache;
}

function toSigningKey(row: SigningKeyRow): SigningKey {
  const { decrypted } = keyCache();
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

const ageSeconds = (row: Pick<SigningKeyRow, "createdAt">, now: Date) => (now.getTime() - row.createdAt.getTime()) / 1000;

/** How long the active key and the published key list are used before being read again. */
export const KEY_CACHE_MS = 30_000;

/** Creates a key and retires every other active one, in one transaction. */
export async function rotateSigningKey({ now = new Date() }: { now?: Date } = {}): Promise<SigningKey> {
  const key = await generateSigningKey();
  const row = await transaction(async (tx) => {
    const created = await tx.signingKey.create({
      data: {
        kid: key.kid,
        alg: key.alg,
        publicJwk: key.publicJwk as object,
        privateJwkEnc: encryptSecret(JSON.stringify(key.privateJwk), PURPOSE),
        createdAt: now,
      },
    });
    await tx.signingKey.updateMany({ where: { retiredAt: null, kid: { not: key.kid } }, data: { retiredAt: now } });
    return created;
  });
  // The new key signs from now on here; the key list is read again with it.
  const cache = keyCache();
  const signing = toSigningKey(row);
  cache.active = { key: signing, createdAt: row.createdAt, readAt: Date.now() };
  cache.published = undefined;
  return signing;
}

/**
 * The key to sign with now. Two instances rotating at the same moment both create a key; each
 * retires the other's, the newest active one wins from then on, and both stay published, so
 * every token either signed still verifies.
 */
export async function getSigningKey({ now = new Date() }: { now?: Date } = {}): Promise<SigningKey> {
  const cache = keyCache();
  const cached = cache.active;
  if (cached && Date.now() - cached.readAt < KEY_CACHE_MS && ageSeconds(cached, now) < KEY_ROTATION_SECONDS) return cached.key;
  const active = await database().prisma.signingKey.findFirst({ where: { retiredAt: null }, orderBy: { createdAt: "desc" } });
  if (active && ageSeconds(active, now) < KEY_ROTATION_SECONDS) {
    const key = usableKey(active);
    if (key) {
      cache.active = { key, createdAt: active.createdAt, readAt: Date.now() };
      return key;
    }
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
export async function listPublicJwks({ now = new Date(), fresh = true }: { now?: Date; fresh?: boolean } = {}): Promise<JWK[]> {
  const cache = keyCache();
  let published = cache.published;
  if (fresh || !published || Date.now() - published.readAt >= KEY_CACHE_MS) {
    const rows = await database().prisma.signingKey.findMany({ select: { kid: true, publicJwk: true, createdAt: true, retiredAt: true }, orderBy: { createdAt: "desc" } });
    published = cache.published = { rows, readAt: Date.now() };
  }
  const { publishedLists } = cache;
  const cutoff = now.getTime() - RETIRED_KEY_PUBLISH_SECONDS * 1000;
  const rows = published.rows.filter((row) => row.retiredAt === null || row.retiredAt.getTime() > cutoff);
  const id = rows.map((row) => row.kid).join(" ");
  let list = publishedLists.get(id);
  if (!list) {
    const keys: SigningKey[] = rows.map((row) => ({ kid: row.kid, alg: SIGNING_ALG, publicJwk: row.publicJwk as JWK, privateJwk: {} }));
    list = publicJwks(keys).keys;
    if (publishedLists.size > 16) publishedLists.clear();
    publishedLists.set(id, list);
  }
  return list;
}

/** How the hub verifies a token it issued, at `now`: its own issuer and its public keys (cached, see above). */
export function ourTokenVerification(now: Date): VerifyAccessTokenOptions {
  return { issuer: env().HUB_BASE_URL, getPublicKeys: (options) => listPublicJwks({ now, fresh: options?.fresh ?? false }), now };
}
