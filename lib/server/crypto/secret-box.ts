import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { hubSecret, hubSecretRing } from "./hub-secret";

// AES-256-GCM with a key derived from a hub secret for one purpose, so one purpose's key never
// opens another's values. Format: v2.<key id>.<iv>.<tag>.<ciphertext>, base64url parts; the key
// id names the secret of the ring that sealed it (a hash, which reveals nothing of it), so a
// value sealed before a rotation is opened with the right old secret and found for re-sealing
// without trying to decrypt it. v1.<iv>.<tag>.<ciphertext> (no key id, before the key ring) is
// still read, with each secret of the ring in turn.
function keyFor(purpose: string, secret: string): Buffer {
  return createHash("sha256").update(`hub:${purpose}:`).update(secret).digest();
}

const keyIds = new Map<string, string>();

/** A short public name of a secret: the first 9 bytes of SHA-256("hub:key-id:" ‖ secret). */
export function secretKeyId(secret: string): string {
  let id = keyIds.get(secret);
  if (!id) {
    id = createHash("sha256").update("hub:key-id:").update(secret).digest().subarray(0, 9).toString("base64url");
    keyIds.set(secret, id);
  }
  return id;
}

export function encryptSecret(plain: string, purpose: string): string {
  const secret = hubSecret();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(purpose, secret), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v2", secretKeyId(secret), ...[iv, cipher.getAuthTag(), data].map((p) => p.toString("base64url"))].join(".");
}

function open(secret: string, purpose: string, iv: string, tag: string, data: string): string {
  const decipher = createDecipheriv("aes-256-gcm", keyFor(purpose, secret), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}

export function decryptSecret(sealed: string, purpose: string): string {
  const parts = sealed.split(".");
  if (parts[0] === "v2" && parts.length === 5) {
    const [, keyId, iv, tag, data] = parts as [string, string, string, string, string];
    const secret = hubSecretRing().find((s) => secretKeyId(s) === keyId);
    if (!secret) throw new Error("Sealed with a secret that is neither HUB_SECRET nor in HUB_PREVIOUS_SECRETS");
    return open(secret, purpose, iv, tag, data);
  }
  if (parts[0] === "v1" && parts.length === 4) {
    const [, iv, tag, data] = parts as [string, string, string, string];
    let failure: unknown;
    for (const secret of hubSecretRing()) {
      try {
        return open(secret, purpose, iv, tag, data);
      } catch (error) {
        failure = error;
      }
    }
    throw failure;
  }
  throw new Error("Unrecognised sealed secret");
}

/** Whether `sealed` is already sealed with the current secret (nothing to re-seal). */
export function sealedWithCurrentSecret(sealed: string): boolean {
  return sealed.startsWith(`v2.${secretKeyId(hubSecret())}.`);
}

/** `sealed` sealed again with the current secret, or null when it already is. */
export function resealSecret(sealed: string, purpose: string): string | null {
  return sealedWithCurrentSecret(sealed) ? null : encryptSecret(decryptSecret(sealed, purpose), purpose);
}
