/**
 * The two JOSE operations a hot path runs on every request, done with node:crypto's synchronous
 * calls rather than jose's WebCrypto ones: 265–287 µs of CPU per RS256 signature against 331–474 µs,
 * and 9–20 µs per cookie opened against 114–139 µs (docs/decisions/035):
 * - signing a compact JWS with RS256 (RFC 7515 §5.1 and §7.1; RFC 7518 §3.3): every token exchange
 *   signs two;
 * - opening a compact JWE with alg "dir" and AES-GCM (RFC 7516 §5.2; RFC 7518 §4.5 and §5.3):
 *   every signed-in request opens its session cookie.
 * jose still does everything else: verifying signatures, sealing cookies, keys and JWKS.
 */
import { createDecipheriv, createPrivateKey, sign, type CipherGCMTypes, type JsonWebKey, type KeyObject } from "node:crypto";

const BASE64URL = /^[A-Za-z0-9_-]*$/;

function jsonBase64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

/** The bytes of a base64url segment, or null when it holds anything else (no padding, no `+` or `/`). */
function base64urlBytes(segment: string): Buffer | null {
  return BASE64URL.test(segment) ? Buffer.from(segment, "base64url") : null;
}

/** An RSA private JWK as a key node:crypto signs with. RS256 keys are 2048 bits at least (RFC 7518 §3.3). */
export function rs256SigningKey(jwk: object): KeyObject {
  const key = createPrivateKey({ key: jwk as JsonWebKey, format: "jwk" });
  if (key.asymmetricKeyType !== "rsa" || (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) {
    throw new TypeError("RS256 signs with an RSA private key of 2048 bits or more");
  }
  return key;
}

/**
 * The base64url RSASSA-PKCS1-v1_5 SHA-256 signature of a JWS signing input (RFC 7515 §5.1 step 5),
 * on the calling thread: under load the thread pool's hops cost more than they spread
 * (docs/decisions/035).
 */
export function rs256Signature(signingInput: string, key: KeyObject): string {
  return sign("sha256", Buffer.from(signingInput, "ascii"), key).toString("base64url");
}

/** The compact JWS of `payload` (JSON), its protected header `alg: RS256` followed by `header`. */
export function signRs256Compact(header: { typ?: string; kid?: string }, payload: object, key: KeyObject): string {
  const signingInput = `${jsonBase64url({ alg: "RS256", ...header })}.${jsonBase64url(payload)}`;
  return `${signingInput}.${rs256Signature(signingInput, key)}`;
}

/** RFC 7518 §5.3: the AES-GCM `enc` for each length of key, in bytes, and its cipher. */
const GCM_BY_KEY_BYTES: Readonly<Record<number, { enc: string; cipher: CipherGCMTypes }>> = {
  16: { enc: "A128GCM", cipher: "aes-128-gcm" },
  24: { enc: "A192GCM", cipher: "aes-192-gcm" },
  32: { enc: "A256GCM", cipher: "aes-256-gcm" },
};

/**
 * The plaintext of a compact JWE whose protected header is alg "dir" (the key is the content key,
 * RFC 7518 §4.5) and the AES-GCM enc of the key's length, or null when it is anything else:
 * malformed, another algorithm, compressed (zip), with critical extensions (crit, RFC 7516 §4.1.13:
 * none is understood here), an IV other than 96 bits or a tag other than 128 (§5.3), or failing
 * authentication.
 */
export function openDirectGcmCompact(compact: string, key: KeyObject): Buffer | null {
  const gcm = GCM_BY_KEY_BYTES[key.symmetricKeySize ?? 0];
  const parts = compact.split(".");
  if (gcm === undefined || parts.length !== 5) return null;
  const [protectedHeader = "", encryptedKey, ivText = "", ciphertextText = "", tagText = ""] = parts;
  // RFC 7516 §5.2 step 10: with direct encryption the JWE Encrypted Key is empty.
  if (encryptedKey !== "") return null;
  const headerBytes = base64urlBytes(protectedHeader);
  const iv = base64urlBytes(ivText);
  const ciphertext = base64urlBytes(ciphertextText);
  const tag = base64urlBytes(tagText);
  if (!headerBytes || !iv || !ciphertext || !tag || iv.length !== 12 || tag.length !== 16) return null;
  let header: unknown;
  try {
    header = JSON.parse(headerBytes.toString("utf8"));
  } catch {
    return null;
  }
  if (typeof header !== "object" || header === null || Array.isArray(header)) return null;
  const fields = header as Record<string, unknown>;
  if (fields.alg !== "dir" || fields.enc !== gcm.enc || "zip" in fields || "crit" in fields) return null;
  try {
    const decipher = createDecipheriv(gcm.cipher, key, iv, { authTagLength: 16 });
    // RFC 7516 §5.2 step 14: the additional authenticated data is the ASCII of the encoded header.
    decipher.setAAD(Buffer.from(protectedHeader, "ascii"));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  } catch {
    return null;
  }
}
