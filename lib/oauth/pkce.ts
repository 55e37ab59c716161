/**
 * Proof Key for Code Exchange (RFC 7636), S256 only.
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** RFC 7636 §4.1: code-verifier = 43*128unreserved, unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~". */
const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;

/** An S256 challenge is BASE64URL(SHA-256) without padding: exactly 43 characters (RFC 7636 §4.2). */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isValidCodeVerifier(verifier: string): boolean {
  return CODE_VERIFIER.test(verifier);
}

export function isValidS256Challenge(challenge: string): boolean {
  return S256_CHALLENGE.test(challenge);
}

/** RFC 7636 §4.2: code_challenge = BASE64URL-ENCODE(SHA256(ASCII(code_verifier))). */
export function computeS256Challenge(verifier: string): string {
  return createHash("sha256").update(verifier, "ascii").digest("base64url");
}

/**
 * RFC 7636 §4.6: the server recomputes the challenge from the verifier and compares it with
 * the stored one. A malformed verifier fails (it could never have produced a valid challenge).
 * The compare is constant-time so the stored challenge cannot be probed byte by byte.
 * `plain` is not accepted at all (RFC 9700 §2.1.1: use S256).
 */
export function verifyPkce(verifier: string, challenge: string, method: "S256"): boolean {
  if (method !== "S256") return false;
  if (!isValidCodeVerifier(verifier) || !isValidS256Challenge(challenge)) return false;
  const computed = Buffer.from(computeS256Challenge(verifier), "ascii");
  const expected = Buffer.from(challenge, "ascii");
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

export type PkcePair = { verifier: string; challenge: string; method: "S256" };

/** A fresh verifier (32 random bytes → 43 chars, RFC 7636 §4.1 recommendation) and its challenge. */
export function createPkcePair(): PkcePair {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: computeS256Challenge(verifier), method: "S256" };
}
