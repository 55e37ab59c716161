import { routeHandler } from "@/lib/server/http/plain-endpoint";
import { authorizationGetEndpoint } from "@/lib/server/oauth/authorization-http";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * Where the authorization screen resumes after sign-in or the profile picker: the same request,
 * completed for the profile the person just chose (decide-authorization.ts, step "continue").
 */
export const GET = routeHandler(authorizationGetEndpoint("continue"));

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
