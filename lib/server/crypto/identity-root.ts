// The roots per-partner identifiers and pseudonyms are derived from (docs/decisions/
// 014-pairwise-identifiers.md). They must never change, while HUB_SECRET may rotate, so they are
// not the secret itself: each is stored in the IdentityRoot table, sealed with the secret's key
// ring (secret-box), and re-sealed when the secret rotates (reseal-secrets.ts).
//   - "pairwise": 32 random bytes, created when a partner first needs an identifier.
//   - "pseudonym": the hub secret in use when pseudonyms were first needed, so the pseudonyms
//     partners received before the root existed (HMAC under HUB_SECRET) stay the same. If the
//     secret was rotated before the root existed, that is the secret just replaced: the first
//     of HUB_PREVIOUS_SECRETS (most recent first, docs/security.md).
import { randomBytes } from "node:crypto";
import { database, type Database } from "@/lib/server/db/database";
import { env } from "@/lib/env";
import { hubSecret } from "./hub-secret";
import { decryptSecret, encryptSecret } from "./secret-box";

export type TIdentityRootName = "pairwise" | "pseudonym";

export const IDENTITY_ROOT_PURPOSE = "identity-root";

// Per database (tests open one per file; a process serves one), read once: a root never changes.
const loaded = new WeakMap<Database, Map<TIdentityRootName, Buffer>>();
const loading = new WeakMap<Database, Map<TIdentityRootName, Promise<Buffer>>>();

function initialValue(name: TIdentityRootName): Buffer {
  if (name === "pairwise") return randomBytes(32);
  return Buffer.from(env().HUB_PREVIOUS_SECRETS[0] ?? hubSecret(), "utf8");
}

async function loadOrCreate(target: Database, name: TIdentityRootName): Promise<Buffer> {
  const prisma = target.prisma;
  let row = await prisma.identityRoot.findUnique({ where: { name } });
  if (!row) {
    // Instances starting together may both create it: the first insert wins, the others read it.
    const sealed = encryptSecret(initialValue(name).toString("base64url"), IDENTITY_ROOT_PURPOSE);
    await prisma.identityRoot.createMany({ data: [{ name, sealed }], skipDuplicates: true });
    row = await prisma.identityRoot.findUniqueOrThrow({ where: { name } });
  }
  return Buffer.from(decryptSecret(row.sealed, IDENTITY_ROOT_PURPOSE), "base64url");
}

/** The root `name`, created on first use. */
export function identityRoot(name: TIdentityRootName): Promise<Buffer> {
  const target = database();
  const done = loaded.get(target)?.get(name);
  if (done) return Promise.resolve(done);
  let pending = loading.get(target);
  if (!pending) loading.set(target, (pending = new Map()));
  let promise = pending.get(name);
  if (!promise) {
    promise = loadOrCreate(target, name).then(
      (root) => {
        let roots = loaded.get(target);
        if (!roots) loaded.set(target, (roots = new Map()));
        roots.set(name, root);
        return root;
      },
      (error: unknown) => {
        pending.delete(name);
        throw error;
      },
    );
    pending.set(name, promise);
  }
  return promise;
}

/**
 * Reads every root (creating the missing ones). Channels that apply sharing rules call it before
 * their synchronous filters (pseudonyms), and the server calls it on start (instrumentation.ts).
 */
export async function loadIdentityRoots(): Promise<void> {
  await Promise.all([identityRoot("pairwise"), identityRoot("pseudonym")]);
}

/** The root `name` if this process has already read it (synchronous code paths), else undefined. */
export function loadedIdentityRoot(name: TIdentityRootName): Buffer | undefined {
  return loaded.get(database())?.get(name);
}

/** Forgets what this process read, as a restart would (tests of the secret's rotation). */
export function forgetLoadedIdentityRoots(): void {
  loaded.delete(database());
  loading.delete(database());
}
