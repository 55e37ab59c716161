// HTTP for user info (GET, POST and the CORS preflight of /users/v1/users/info): plain endpoints,
// served by the route file through Next and by server.mjs's hot route (plain-endpoint.ts).
import { bearerChallenge } from "@/lib/oauth/authorization-header";
import { OAuthError } from "@/lib/oauth/errors";
import { allowHeader } from "@/lib/server/http/other-methods";
import type { TPlainRequest, TPlainResponse } from "@/lib/server/http/plain-endpoint";
import { userInfoBody, tokenFromPostBody, MAX_USER_INFO_BODY_BYTES } from "./get-user-info";
import { NO_STORE } from "./no-store";
import { serverErrorResult } from "./server-error";

/**
 * Bearer-authenticated, never cookie-authenticated, so any origin may call it: implicit-flow
 * applications run in the browser (docs/oauth.md, "CORS").
 */
const CORS = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "WWW-Authenticate" };
/** A 200's headers, one object for every call: the body is the JSON text userInfoBody made. */
const OK_HEADERS = Object.freeze({ ...NO_STORE, ...CORS, "Content-Type": "application/json" });

async function answer(authorization: string | null | OAuthError, request: TPlainRequest): Promise<TPlainResponse> {
  try {
    const result =
      authorization instanceof OAuthError
        ? authorization
        : await userInfoBody({ authorization, relationshipId: request.header("x-relationship-id") });
    if (result instanceof OAuthError) {
      return { status: result.status, headers: { ...NO_STORE, ...CORS, "WWW-Authenticate": bearerChallenge(result) }, json: result.toJSON() };
    }
    return { status: 200, headers: OK_HEADERS, text: result };
  } catch (error) {
    return serverErrorResult(error, CORS);
  }
}

/** User information for the profile of an access token or id token (docs/oauth.md). */
export function userInfoGet(request: TPlainRequest): Promise<TPlainResponse> {
  return answer(request.header("authorization"), request);
}

/** OIDC Core §5.3.1: user info answers POST too; the token may also come as a form field (RFC 6750 §2.2). */
export async function userInfoPost(request: TPlainRequest): Promise<TPlainResponse> {
  const body = await request.text(MAX_USER_INFO_BODY_BYTES);
  return answer(tokenFromPostBody(request.header("authorization"), request.header("content-type"), body), request);
}

export function userInfoOptions(): TPlainResponse {
  return {
    status: 204,
    headers: {
      ...CORS,
      Allow: allowHeader(["GET", "POST"]),
      "Access-Control-Allow-Methods": "GET, POST",
      "Access-Control-Allow-Headers": "authorization, x-relationship-id, accept, content-type",
      "Access-Control-Max-Age": "600",
    },
  };
}
