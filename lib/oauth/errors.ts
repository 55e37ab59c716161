/**
 * OAuth 2 error codes and their HTTP statuses.
 *
 * Codes come from RFC 6749 §4.1.2.1 / §4.2.2.1 (authorization endpoint), §5.2 (token
 * endpoint) and RFC 6750 §3.1 (protected resources). One class carries all of them so every
 * endpoint answers with the same `{ error, error_description }` body.
 */

export type OAuthErrorCode =
  | "invalid_request"
  | "invalid_client"
  | "invalid_grant"
  | "unauthorized_client"
  | "unsupported_grant_type"
  | "unsupported_response_type"
  | "invalid_scope"
  | "access_denied"
  | "server_error"
  | "invalid_token"
  | "insufficient_scope"
  // OIDC Core §3.1.2.6, answers to prompt=none
  | "login_required"
  | "account_selection_required"
  | "interaction_required";

/**
 * HTTP status per code. RFC 6749 §5.2 makes token-endpoint errors 400 except invalid_client
 * (401, with a WWW-Authenticate challenge when the client used the Authorization header).
 * RFC 6750 §3.1 gives invalid_token 401 and insufficient_scope 403. Errors delivered by
 * redirect (access_denied, server_error, ...) never use their status; 400 keeps a bad input
 * from ever surfacing as a 5xx.
 */
export const OAUTH_ERROR_STATUS: Readonly<Record<OAuthErrorCode, number>> = {
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  unsupported_response_type: 400,
  invalid_scope: 400,
  access_denied: 400,
  server_error: 400,
  invalid_token: 401,
  insufficient_scope: 403,
  login_required: 400,
  account_selection_required: 400,
  interaction_required: 400,
};

/**
 * RFC 6749 §4.1.2.1 / §5.2: error_description is limited to %x20-21 / %x23-5B / %x5D-7E
 * (printable ASCII without `"` and `\`). Descriptions may quote client input (a scope name),
 * so anything outside the set is replaced rather than trusted.
 */
export function sanitizeErrorDescription(description: string): string {
  return description.replace(/[^\x20-\x21\x23-\x5B\x5D-\x7E]/g, "?");
}

export class OAuthError extends Error {
  readonly code: OAuthErrorCode;
  readonly description: string;
  readonly status: number;

  constructor(code: OAuthErrorCode, description: string, status: number = OAUTH_ERROR_STATUS[code]) {
    const safe = sanitizeErrorDescription(description);
    // A refusal is an answer to the client, not a fault of the hub: no stack trace is captured.
    // Capturing one cost each refused call (a flood of bad tokens) about a tenth of its CPU.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(`${code}: ${safe}`);
    Error.stackTraceLimit = limit;
    this.name = "OAuthError";
    this.code = code;
    this.description = safe;
    this.status = status;
  }

  /** The JSON body of RFC 6749 §5.2 / the redirect parameters of §4.1.2.1. */
  toJSON(): { error: OAuthErrorCode; error_description: string } {
    return { error: this.code, error_description: this.description };
  }
}

export function isOAuthError(value: unknown): value is OAuthError {
  return value instanceof OAuthError;
}
