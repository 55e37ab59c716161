// POST /ims/oneroster/token: the OneRoster 1.2 token endpoint, OAuth 2 client credentials
// (RFC 6749 §4.4) as the 1.2 REST binding asks (docs/decisions/039-oneroster-token-endpoint.md).
// The client is the edtech's existing OAuth application, authenticated as at the hub's own token
// endpoint (client_secret_basic or client_secret_post, authenticateClient). Checks, in order:
//   1. the body is application/x-www-form-urlencoded (§4.4.2), each parameter once  → else 400 invalid_request
//   2. the client authenticates                                                   → else 401 invalid_client
//   3. grant_type is client_credentials                                           → else 400 unsupported_grant_type
//   4. every scope asked for is a OneRoster 1.2 Rostering scope                  → else 400 invalid_scope
//   5. OneRoster is on and in force for the application at one institution or more → else 400 unauthorized_client
// The token is a JWT (RFC 9068) signed with the hub's current key: typ at+jwt, aud the OneRoster
// API, sub and client_id the client, the granted scopes, one hour. Nothing is stored per token;
// each read checks the rules again.
import { randomUUID } from "node:crypto";
import { env } from "@/lib/env";
import { OAuthError } from "@/lib/oauth/errors";
import { signAccessToken } from "@/lib/oauth/jwt";
import { formBodyToRecord } from "@/lib/oauth/token-request";
import { ALL_ONEROSTER_SCOPES, formatScopes, grantScopes, parseScopeParameter } from "@/lib/oneroster/scopes";
import { mediaType } from "@/lib/server/http/media-type";
import type { TPlainRequest, TPlainResponse } from "@/lib/server/http/plain-endpoint";
import { authenticateClient } from "@/lib/server/oauth/authenticate-client";
import { MAX_TOKEN_REQUEST_BYTES } from "@/lib/server/oauth/handle-token-request";
import { NO_STORE } from "@/lib/server/oauth/no-store";
import { serverErrorResult } from "@/lib/server/oauth/server-error";
import { getSigningKey } from "@/lib/server/oauth/signing-keys";
import { listOneRosterEnablements } from "./list-oneroster-enablements";

/** One hour, as the hub's other access tokens: there is no refresh, the client asks again. */
export const ONEROSTER_TOKEN_TTL_SECONDS = 60 * 60;

/** The OneRoster tokens' audience: the OneRoster API of this hub, never a client (user info's tokens have the client). */
export function oneRosterAudience(): string {
  return `${env().HUB_BASE_URL}/ims/oneroster`;
}

export interface TOneRosterTokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
}

function failure(error: OAuthError): TPlainResponse {
  const headers: Record<string, string> = { ...NO_STORE };
  // RFC 6749 §5.2: a 401 invalid_client carries a challenge for the scheme clients may use (as the hub's token endpoint).
  if (error.status === 401) headers["WWW-Authenticate"] = 'Basic realm="hub", charset="UTF-8"';
  return { status: error.status, headers, json: error.toJSON() };
}

function readForm(contentType: string | null, text: string | null): Record<string, string> | OAuthError {
  if (text === null) return new OAuthError("invalid_request", "The request body is too large");
  if (mediaType(contentType) !== "application/x-www-form-urlencoded") {
    return new OAuthError("invalid_request", "The body must be application/x-www-form-urlencoded (RFC 6749 section 4.4.2)");
  }
  return formBodyToRecord(new URLSearchParams(text));
}

async function issue(http: TPlainRequest): Promise<TPlainResponse> {
  const body = readForm(http.header("content-type"), await http.text(MAX_TOKEN_REQUEST_BYTES));
  if (body instanceof OAuthError) return failure(body);
  const client = await authenticateClient({ authorizationHeader: http.header("authorization"), body, code: undefined });
  if (client instanceof OAuthError) return failure(client);
  if (!body.grant_type) return failure(new OAuthError("invalid_request", "grant_type is required"));
  if (body.grant_type !== "client_credentials") {
    return failure(new OAuthError("unsupported_grant_type", "Only grant_type=client_credentials is supported here"));
  }
  const asked = parseScopeParameter(body.scope);
  if (asked instanceof OAuthError) return failure(asked);
  const { application } = client;
  const enabled = await listOneRosterEnablements({ applicationId: application.id, edtechId: application.edtechId });
  if (enabled.length === 0) {
    return failure(new OAuthError("unauthorized_client", "No institution has enabled OneRoster for this application"));
  }
  // An application with OneRoster on may read with any of the three scopes.
  const granted = grantScopes(asked, ALL_ONEROSTER_SCOPES);
  if (granted.length === 0) return failure(new OAuthError("invalid_scope", "None of the scopes asked for is allowed"));
  const now = new Date();
  const accessToken = await signAccessToken({
    key: await getSigningKey({ now }),
    issuer: env().HUB_BASE_URL,
    audience: oneRosterAudience(),
    subject: application.clientId,
    clientId: application.clientId,
    scope: granted,
    jti: randomUUID(),
    expiresInSeconds: ONEROSTER_TOKEN_TTL_SECONDS,
    now,
  });
  const answer: TOneRosterTokenResponse = { access_token: accessToken, token_type: "Bearer", expires_in: ONEROSTER_TOKEN_TTL_SECONDS, scope: formatScopes(granted) };
  return { status: 200, headers: NO_STORE, json: answer };
}

/** The OneRoster token endpoint (a plain endpoint: served by Next's route and by server.mjs's hot route). */
export async function handleOneRosterTokenRequest(http: TPlainRequest): Promise<TPlainResponse> {
  try {
    return await issue(http);
  } catch (error) {
    return serverErrorResult(error);
  }
}
