import { getCurrentUser } from "@/lib/server/auth/current-user";
import { isRouterFetch, routerFetchResponse, serverErrorResponse, toAuthorizationResponse } from "@/lib/server/oauth/authorization-http";
import { decideAuthorization } from "@/lib/server/oauth/decide-authorization";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/**
 * Where the authorization screen resumes after sign-in or the profile picker: the same request,
 * completed for the profile the person just chose (decide-authorization.ts, step "continue").
 */
export async function GET(request: Request): Promise<Response> {
  if (isRouterFetch(request)) return routerFetchResponse();
  try {
    const user = await getCurrentUser();
    const session = user && { personId: user.personId, profileId: user.profile?.id ?? null };
    const query = new URL(request.url).searchParams;
    return toAuthorizationResponse(await decideAuthorization({ query, session, step: "continue" }));
  } catch (error) {
    return serverErrorResponse(error);
  }
}
