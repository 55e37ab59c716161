/**
 * The token request body (POST /lti/v1/oauth2/authorize): the spec's JSON body, or
 * application/x-www-form-urlencoded as RFC 6749 §4.1.3 defines it.
 */
import { z } from "zod";
import { OAuthError } from "./errors";

/** RFC 6749 §3.2: parameters sent without a value MUST be treated as if they were omitted. */
const emptyToUndefined = (value: unknown): unknown => (value === "" || value === null ? undefined : value);

const requiredString = (name: string, max: number) =>
  z.preprocess(
    emptyToUndefined,
    z
      .string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a string`) })
      .max(max, `${name} is too long`),
  );

const optionalString = (name: string, max: number) =>
  z.preprocess(
    emptyToUndefined,
    z.string({ error: `${name} must be a string` }).max(max, `${name} is too long`).optional(),
  );

/** Step 1: the grant type alone, so an unknown grant is reported before its other fields. */
const grantTypeSchema = z.object({ grant_type: requiredString("grant_type", 128) });

/**
 * Step 2: the authorization_code grant (RFC 6749 §4.1.3, RFC 7636 §4.5). Length caps bound the
 * work an attacker can make us do. Unknown fields are stripped: RFC 6749 §3.2 says to ignore
 * unrecognized parameters.
 */
export const tokenRequestSchema = z.object({
  grant_type: z.literal("authorization_code"),
  code: requiredString("code", 512),
  // Required to match only if it was sent at authorize time (RFC 6749 §4.1.3); the caller decides.
  redirect_uri: optionalString("redirect_uri", 2048),
  // Format is checked by verifyPkce; a bad verifier is invalid_grant (RFC 7636 §4.6).
  code_verifier: optionalString("code_verifier", 256),
  client_id: optionalString("client_id", 256),
  client_secret: optionalString("client_secret", 512),
});

export type TokenRequest = {
  grantType: "authorization_code";
  code: string;
  redirectUri?: string;
  codeVerifier?: string;
  clientId?: string;
  clientSecret?: string;
};

export const SUPPORTED_GRANT_TYPES: readonly string[] = ["authorization_code"];

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function firstIssueMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? "Malformed token request";
}

function toTokenRequest(data: z.infer<typeof tokenRequestSchema>): TokenRequest {
  const request: TokenRequest = { grantType: data.grant_type, code: data.code };
  if (data.redirect_uri !== undefined) request.redirectUri = data.redirect_uri;
  if (data.code_verifier !== undefined) request.codeVerifier = data.code_verifier;
  if (data.client_id !== undefined) request.clientId = data.client_id;
  if (data.client_secret !== undefined) request.clientSecret = data.client_secret;
  return request;
}

/**
 * Parses a decoded body (JSON object, or the record from `formBodyToRecord`).
 * Missing/malformed fields → invalid_request; a grant other than authorization_code →
 * unsupported_grant_type (RFC 6749 §5.2; refresh, client credentials and password grants are
 * not offered).
 */
export function parseTokenRequest(body: unknown): TokenRequest | OAuthError {
  if (!isPlainObject(body)) return new OAuthError("invalid_request", "The request body must be an object");
  const grant = grantTypeSchema.safeParse(body);
  if (!grant.success) return new OAuthError("invalid_request", firstIssueMessage(grant.error));
  if (!SUPPORTED_GRANT_TYPES.includes(grant.data.grant_type)) {
    return new OAuthError("unsupported_grant_type", "Only grant_type=authorization_code is supported");
  }
  const parsed = tokenRequestSchema.safeParse(body);
  if (!parsed.success) return new OAuthError("invalid_request", firstIssueMessage(parsed.error));
  return toTokenRequest(parsed.data);
}

/**
 * A form body as a plain record. RFC 6749 §3.2: request parameters MUST NOT be included more
 * than once, so a repeated name is refused instead of silently picking one value.
 */
export function formBodyToRecord(form: URLSearchParams): Record<string, string> | OAuthError {
  const record: Record<string, string> = {};
  for (const [name, value] of form) {
    if (Object.hasOwn(record, name)) return new OAuthError("invalid_request", `${name} is repeated`);
    record[name] = value;
  }
  return record;
}
