// POST /lti/v1/oauth2/authorize: the token endpoint. Accepts the spec's JSON body, form-encoded
// bodies (RFC 6749 §4.1.3) and HTTP Basic client authentication (§2.3.1), so both partners that
// follow the spec literally and standard client libraries work.
import { OAuthError } from "@/lib/oauth/errors";
import { formBodyToRecord, parseTokenRequest } from "@/lib/oauth/token-request";
import { mediaType } from "@/lib/server/http/media-type";
import type { TPlainRequest, TPlainResponse } from "@/lib/server/http/plain-endpoint";
import { NO_STORE } from "./no-store";
import { serverErrorResult } from "./server-error";
import { authenticateClient } from "./authenticate-client";
import { exchangeCode, type TTokenResponse } from "./exchange-code";

/** A token request is a few short fields; anything bigger is not one. */
export const MAX_TOKEN_REQUEST_BYTES = 16 * 1024;

/** Media types a JSON body arrives with when its sender did not set one: none, curl's, fetch's. */
const LOOSE_TYPES = ["", "application/x-www-form-urlencoded", "text/plain"];

/**
 * The body as a record. JSON is recognised by its media type (`application/json`, `…+json`),
 * and also when an untyped, form-typed or text-typed body starts with `{`: the contract only
 * says the body is JSON, `curl -d '{...}'` labels it a form and `fetch` with a string body
 * labels it `text/plain`.
 */
function readBody(contentType: string | null, text: string | null): Record<string, unknown> | OAuthError {
  if (text === null) return new OAuthError("invalid_request", "The request body is too large");
  const type = mediaType(contentType);
  const looksJson = text.trimStart().startsWith("{");
  if (type === "application/json" || type.endsWith("+json") || (LOOSE_TYPES.includes(type) && looksJson)) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
      return new OAuthError("invalid_request", "The JSON body must be an object");
    } catch {
      return new OAuthError("invalid_request", "The body is not valid JSON");
    }
  }
  if (type === "" || type === "application/x-www-form-urlencoded") return formBodyToRecord(new URLSearchParams(text));
  return new OAuthError("invalid_request", "The body must be JSON or application/x-www-form-urlencoded");
}

function failure(error: OAuthError): TPlainResponse {
  const headers: Record<string, string> = { ...NO_STORE };
  // RFC 6749 §5.2: a 401 invalid_client carries a challenge for the scheme clients may use.
  if (error.status === 401) headers["WWW-Authenticate"] = 'Basic realm="hub", charset="UTF-8"';
  return { status: error.status, headers, json: error.toJSON() };
}

async function exchange(http: TPlainRequest): Promise<TPlainResponse> {
  const body = readBody(http.header("content-type"), await http.text(MAX_TOKEN_REQUEST_BYTES));
  if (body instanceof OAuthError) return failure(body);
  // The code as sent is read with the client (one round trip); used only if it is the grant's code.
  const sentCode = typeof body.code === "string" && body.code.length > 0 ? body.code : undefined;
  const client = await authenticateClient({ authorizationHeader: http.header("authorization"), body, code: sentCode });
  if (client instanceof OAuthError) return failure(client);
  const request = parseTokenRequest(body);
  if (request instanceof OAuthError) return failure(request);
  const code = request.code === sentCode ? client.code : undefined;
  const result = await exchangeCode({ application: client.application, request, code });
  if (result instanceof OAuthError) return failure(result);
  return { status: 200, headers: NO_STORE, json: result satisfies TTokenResponse };
}

/** The token endpoint (a plain endpoint: served by Next's route and by server.mjs's hot route). */
export async function handleTokenRequest(http: TPlainRequest): Promise<TPlainResponse> {
  try {
    return await exchange(http);
  } catch (error) {
    return serverErrorResult(error);
  }
}
