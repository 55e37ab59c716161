import { bearerChallenge } from "@/lib/oauth/authorization-header";
import { OAuthError } from "@/lib/oauth/errors";
import { serverErrorResponse } from "@/lib/server/oauth/authorization-http";
import { getUserInfo } from "@/lib/server/oauth/get-user-info";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * Bearer-authenticated, never cookie-authenticated, so any origin may call it: implicit-flow
 * applications run in the browser (docs/oauth.md, "CORS").
 */
const CORS = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "WWW-Authenticate" };
const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

/** User information for the profile of an access token (docs/oauth.md). */
export async function GET(request: Request): Promise<Response> {
  try {
    const result = await getUserInfo({
      authorization: request.headers.get("authorization"),
      relationshipId: request.headers.get("x-relationship-id"),
    });
    if (result instanceof OAuthError) {
      const headers = { ...NO_STORE, ...CORS, "WWW-Authenticate": bearerChallenge(result) };
      return Response.json(result.toJSON(), { status: result.status, headers });
    }
    return Response.json(result, { headers: { ...NO_STORE, ...CORS } });
  } catch (error) {
    return serverErrorResponse(error, CORS);
  }
}

export function OPTIONS(): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...CORS,
      "Access-Control-Allow-Methods": "GET",
      "Access-Control-Allow-Headers": "authorization, x-relationship-id, accept",
      "Access-Control-Max-Age": "600",
    },
  });
}
