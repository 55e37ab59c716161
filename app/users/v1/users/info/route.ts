import { bearerChallenge } from "@/lib/oauth/authorization-header";
import { OAuthError } from "@/lib/oauth/errors";
import { readRequestBody } from "@/lib/server/http/read-request-body";
import { serverErrorResponse } from "@/lib/server/oauth/authorization-http";
import { getUserInfo, tokenFromPostBody, MAX_USER_INFO_BODY_BYTES } from "@/lib/server/oauth/get-user-info";
import { allowHeader, otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * Bearer-authenticated, never cookie-authenticated, so any origin may call it: implicit-flow
 * applications run in the browser (docs/oauth.md, "CORS").
 */
const CORS = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "WWW-Authenticate" };
const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

async function answer(authorization: string | null | OAuthError, request: Request): Promise<Response> {
  try {
    const result =
      authorization instanceof OAuthError
        ? authorization
        : await getUserInfo({ authorization, relationshipId: request.headers.get("x-relationship-id") });
    if (result instanceof OAuthError) {
      const headers = { ...NO_STORE, ...CORS, "WWW-Authenticate": bearerChallenge(result) };
      return Response.json(result.toJSON(), { status: result.status, headers });
    }
    return Response.json(result, { headers: { ...NO_STORE, ...CORS } });
  } catch (error) {
    return serverErrorResponse(error, CORS);
  }
}

/** User information for the profile of an access token or id token (docs/oauth.md). */
export function GET(request: Request): Promise<Response> {
  return answer(request.headers.get("authorization"), request);
}

/** OIDC Core §5.3.1: user info answers POST too; the token may also come as a form field (RFC 6750 §2.2). */
export async function POST(request: Request): Promise<Response> {
  const body = await readRequestBody(request, MAX_USER_INFO_BODY_BYTES);
  return answer(tokenFromPostBody(request.headers.get("authorization"), request.headers.get("content-type"), body), request);
}

export function OPTIONS(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      Allow: allowHeader(["GET", "POST"]),
      "Access-Control-Allow-Methods": "GET, POST",
      "Access-Control-Allow-Headers": "authorization, x-relationship-id, accept, content-type",
      "Access-Control-Max-Age": "600",
    },
  });
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { PUT, PATCH, DELETE } = otherMethods(["GET", "POST"]);
