/**
 * Client authentication at the token endpoint (RFC 6749 §2.3.1): HTTP Basic or body fields.
 */
import { OAuthError } from "./errors";

export type ClientCredentials = {
  clientId: string;
  clientSecret: string;
  method: "client_secret_basic" | "client_secret_post";
};

export type ClientCredentialInput = {
  authorizationHeader?: string | null;
  body: Readonly<Record<string, unknown>>;
};

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/**
 * application/x-www-form-urlencoded decoding of one value: `+` is a space, then percent
 * decoding. Returns undefined for malformed escapes such as `%zz`.
 */
function formUrlDecode(value: string): string | undefined {
  try {
    return decodeURIComponent(value.replace(/\+/g, " "));
  } catch {
    return undefined;
  }
}

/**
 * RFC 6749 §2.3.1: the client id and secret are each form-urlencoded, joined by `:` and
 * base64-encoded (RFC 7617). Encoding happens before joining, so the first `:` is the
 * separator and an encoded `%3A` in the secret is part of the secret.
 */
export function parseBasicCredentials(header: string): { clientId: string; clientSecret: string } | OAuthError {
  const match = /^basic[ \t]+(\S+)[ \t]*$/i.exec(header.trim()); // RFC 7235 §2.1: scheme is case-insensitive
  const encoded = match?.[1];
  if (encoded === undefined) return new OAuthError("invalid_client", "Unsupported client authentication scheme");
  if (!BASE64.test(encoded)) return new OAuthError("invalid_client", "Malformed Basic credentials");
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon === -1) return new OAuthError("invalid_client", "Malformed Basic credentials");
  const clientId = formUrlDecode(decoded.slice(0, colon));
  const clientSecret = formUrlDecode(decoded.slice(colon + 1));
  if (clientId === undefined || clientSecret === undefined) {
    return new OAuthError("invalid_client", "Malformed Basic credentials");
  }
  if (clientId === "" || clientSecret === "") return new OAuthError("invalid_client", "Missing client credentials");
  return { clientId, clientSecret };
}

/** Reads an optional string field; "" counts as absent (RFC 6749 §3.2). */
function bodyField(body: Readonly<Record<string, unknown>>, name: string): string | undefined | OAuthError {
  const value = body[name];
  if (value === undefined || value === null || value === "") return undefined;
  return typeof value === "string" ? value : new OAuthError("invalid_request", `${name} must be a string`);
}

function fromBasic(
  header: string,
  bodyClientId: string | undefined,
  bodySecret: string | undefined,
): ClientCredentials | OAuthError {
  // RFC 6749 §2.3: a client MUST NOT use more than one authentication method per request.
  if (bodySecret !== undefined) {
    return new OAuthError("invalid_request", "Use either HTTP Basic or client_secret in the body, not both");
  }
  const basic = parseBasicCredentials(header);
  if (basic instanceof OAuthError) return basic;
  // Some libraries also send client_id in the body; harmless if it names the same client.
  if (bodyClientId !== undefined && bodyClientId !== basic.clientId) {
    return new OAuthError("invalid_request", "client_id in the body does not match HTTP Basic");
  }
  return { ...basic, method: "client_secret_basic" };
}

function fromBody(clientId: string | undefined, clientSecret: string | undefined): ClientCredentials | OAuthError {
  if (clientId === undefined) return new OAuthError("invalid_client", "Client authentication is required");
  // Every hub application is confidential: a client_id alone does not authenticate.
  if (clientSecret === undefined) return new OAuthError("invalid_client", "client_secret is required");
  return { clientId, clientSecret, method: "client_secret_post" };
}

/**
 * Which client is calling and with what secret. The secret is not checked here; the caller
 * looks the client up and compares hashes. Errors are invalid_client (401), except
 * malformed/duplicated credentials, which are invalid_request (400).
 */
export function readClientCredentials(input: ClientCredentialInput): ClientCredentials | OAuthError {
  const clientId = bodyField(input.body, "client_id");
  if (clientId instanceof OAuthError) return clientId;
  const clientSecret = bodyField(input.body, "client_secret");
  if (clientSecret instanceof OAuthError) return clientSecret;
  const header = input.authorizationHeader?.trim();
  return header ? fromBasic(header, clientId, clientSecret) : fromBody(clientId, clientSecret);
}
