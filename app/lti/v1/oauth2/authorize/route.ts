import { authorizationGetEndpoint } from "@/lib/server/oauth/authorization-http";
import { handleTokenRequest } from "@/lib/server/oauth/handle-token-request";
import { routeHandler } from "@/lib/server/http/plain-endpoint";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The authorization screen (docs/oauth.md): validate, sign in, pick a profile, redirect. */
export const GET = routeHandler(authorizationGetEndpoint("authorize"));

/** The token exchange: the spec's JSON body, form bodies and HTTP Basic (RFC 6749 §2.3.1, §4.1.3). */
export const POST = routeHandler(handleTokenRequest);

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
