import { routeHandler } from "@/lib/server/http/plain-endpoint";
import { otherMethods } from "@/lib/server/http/other-methods";
import { lti13AuthorizeGet, lti13AuthorizePost } from "@/lib/server/lti13/authorize-http";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The LTI 1.3 authentication request (GET or form POST): lib/server/lti13/authorize-http.ts, also served beside Next. */
export const GET = routeHandler(lti13AuthorizeGet);
export const POST = routeHandler(lti13AuthorizePost);

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
