import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { hubSecret } from "./hub-secret";

// AES-256-GCM with a key derived from the hub secret for one purpose, so rotating one purpose's
// derivation never touches another's. Format: v1.<iv>.<tag>.<ciphertext>, base64url parts.
function keyFor(purpose: string): Buffer {
  return createHash("sha256").update(`hub:${purpose}:`).update(hubSecret()).digest();
}

export function encryptSecret(plain: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyFor(purpose), iv);
  const data = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), data].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

export function decryptSecret(sealed: string, purpose: string): string {
  const [version, iv, tag, data] = sealed.split(".");
  if (version !== "v1" || !iv || !tag || data === undefined) throw new Error("Unrecognised sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", keyFor(purpose), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(data, "base64url")), decipher.final()]).toString("utf8");
}
