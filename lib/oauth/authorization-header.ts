/**
 * Reading the access token from the `authorization` header at the hub's protected resources.
 */
import { OAuthError } from "./errors";

/** RFC 6750 §2.1: b64token = 1*( ALPHA / DIGIT / "-" / "." / "_" / "~" / "+" / "/" ) *"=". */
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

function invalid(description: string): OAuthError {
  return new OAuthError("invalid_token", description);
}

/**
 * Accepts `Bearer <token>` (RFC 6750 §2.1, scheme case-insensitive per RFC 7235 §2.1) and,
 * because the spec shows partners sending the token alone, the bare token too. Any other
 * scheme, an empty value or a token outside the b64token syntax is refused with
 * invalid_token (401), as the design asks for every bad token.
 */
export function readBearerToken(header: string | null | undefined): string | OAuthError {
  const value = header?.trim() ?? "";
  if (value === "") return invalid("Missing access token");
  const parts = value.split(/[ \t]+/);
  if (parts.length > 2) return invalid("Malformed authorization header");
  const [first = "", second] = parts;
  if (second === undefined) {
    // A lone scheme name is not a token.
    if (/^bearer$/i.test(first)) return invalid("Missing access token");
    return B64TOKEN.test(first) ? first : invalid("Malformed access token");
  }
  if (!/^bearer$/i.test(first)) return invalid("Unsupported authorization scheme");
  return B64TOKEN.test(second) ? second : invalid("Malformed access token");
}

/**
 * The WWW-Authenticate value for a 401/403 from a protected resource (RFC 6750 §3). The
 * description is already restricted to the allowed characters by OAuthError.
 */
export function bearerChallenge(error: OAuthError, realm: string = "hub"): string {
  return `Bearer realm="${realm}", error="${error.code}", error_description="${error.description}"`;
}
