/**
 * OAuth 1.0 percent-encoding (RFC 5849 §3.6, RFC 3986 §2.1).
 *
 * Signer and verifier must produce byte-identical base strings, so this is
 * stricter than encodeURIComponent (which leaves ! ' ( ) * alone) and never
 * uses "+" for a space.
 */

const UNRESERVED = /^[A-Za-z0-9\-._~]$/;

export function percentEncode(value: string): string {
  let out = "";
  // Iterating the UTF-8 bytes (not UTF-16 code units) is what §3.6 asks for.
  for (const byte of Buffer.from(value, "utf8")) {
    const char = String.fromCharCode(byte);
    out += UNRESERVED.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}
