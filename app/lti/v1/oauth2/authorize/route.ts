import { authorizationGetHandler, serverErrorResponse } from "@/lib/server/oauth/authorization-http";
import { handleTokenRequest, MAX_TOKEN_REQUEST_BYTES } from "@/lib/server/oauth/handle-token-request";
import { readRequestBody } from "@/lib/server/http/read-request-body";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The authorization screen (docs/oauth.md): validate, sign in, pick a profile, redirect. */
export const GET = authorizationGetHandler("authorize");

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

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
