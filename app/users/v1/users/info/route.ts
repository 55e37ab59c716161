import { routeHandler } from "@/lib/server/http/plain-endpoint";
import { otherMethods } from "@/lib/server/http/other-methods";
import { userInfoGet, userInfoOptions, userInfoPost } from "@/lib/server/oauth/user-info-http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** User information for the profile of an access token or id token (docs/oauth.md). */
export const GET = routeHandler(userInfoGet);

/** OIDC Core §5.3.1: user info answers POST too; the token may also come as a form field (RFC 6750 §2.2). */
export const POST = routeHandler(userInfoPost);

/** The CORS preflight of a browser application's call. */
export const OPTIONS = routeHandler(userInfoOptions);

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { PUT, PATCH, DELETE } = otherMethods(["GET", "POST"]);
