import { getCurrentUser } from "@/lib/server/auth/current-user";
import { isRouterFetch, routerFetchResponse, serverErrorResponse, toAuthorizationResponse } from "@/lib/server/oauth/authorization-http";
import { decideAuthorization } from "@/lib/server/oauth/decide-authorization";
import { handleTokenRequest, MAX_TOKEN_REQUEST_BYTES } from "@/lib/server/oauth/handle-token-request";
import { readRequestBody } from "@/lib/server/http/read-request-body";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The authorization screen (docs/oauth.md): validate, sign in, pick a profile, redirect. */
export async function GET(request: Request): Promise<Response> {
  if (isRouterFetch(request)) return routerFetchResponse();
  try {
    const user = await getCurrentUser();
    const session = user && { personId: user.personId, profileId: user.profile?.id ?? null };
    const query = new URL(request.url).searchParams;
    return toAuthorizationResponse(await decideAuthorization({ query, session, step: "authorize" }));
  } catch (error) {
    return serverErrorResponse(error);
  }
}

/** The token exchange: the spec's JSON body, form bodies and HTTP Basic (RFC 6749 §2.3.1, §4.1.3). */
export async function POST(request: Request): Promise<Response> {
  try {
    const result = await handleTokenRequest({
      contentType: request.headers.get("content-type"),
      authorization: request.headers.get("authorization"),
      bodyText: await readRequestBody(request, MAX_TOKEN_REQUEST_BYTES),
    });
    return Response.json(result.body, { status: result.status, headers: result.headers });
  } catch (error) {
    return serverErrorResponse(error);
  }
}
