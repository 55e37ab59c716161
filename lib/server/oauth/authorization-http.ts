// HTTP for the authorization screen's route handlers (/lti/v1/oauth2/authorize, /oauth/continuar).
import { getRequestUser } from "@/lib/server/auth/current-user";
import { NO_STORE } from "./no-store";
import { serverErrorResponse } from "./server-error";
import { decideAuthorization, type TAuthorizationOutcome, type TAuthorizationStep } from "./decide-authorization";
import { renderErrorPage } from "./render-error-page";

// Every response of the flow may carry a code or token in its Location: never cached (NO_STORE).
// No CORS headers: this is a browser navigation, never a cross-origin fetch (DESIGN.md).

/**
 * Next's client router fetches a route it navigates to (`router.push` after the profile picker)
 * with an `RSC: 1` header and follows redirects inside that fetch. Doing the work there would
 * issue a code in a background fetch and again in the real navigation. Answering with a plain
 * 200 instead makes the router fall back to a full page load of the same URL, which does the work
 * exactly once.
 */
export function isRouterFetch(request: Request): boolean {
  return request.headers.get("rsc") === "1" || request.headers.has("next-router-prefetch");
}

export function routerFetchResponse(): Response {
  return new Response("<!doctype html><title>Hub Educacional</title>", {
    status: 200,
    headers: { ...NO_STORE, "Content-Type": "text/html; charset=utf-8" },
  });
}

export function toAuthorizationResponse(outcome: TAuthorizationOutcome): Response {
  switch (outcome.kind) {
    case "error_page":
      return new Response(renderErrorPage(outcome.error), {
        status: 400,
        headers: { ...NO_STORE, "Content-Type": "text/html; charset=utf-8" },
      });
    case "redirect":
      return new Response(null, { status: 302, headers: { ...NO_STORE, Location: outcome.location } });
    case "sign_in":
      return new Response(null, { status: 302, headers: { ...NO_STORE, Location: outcome.loginUrl } });
    case "choose_profile":
      return new Response(null, { status: 302, headers: { ...NO_STORE, Location: outcome.pickerUrl } });
  }
}

/**
 * The GET handler of the authorization screen and of its resume step after sign-in: the same
 * request, decided for the signed-in session (decide-authorization.ts).
 */
export function authorizationGetHandler(step: TAuthorizationStep): (request: Request) => Promise<Response> {
  return async (request) => {
    if (isRouterFetch(request)) return routerFetchResponse();
    try {
      // The session from the request's own cookie (no Next request context): the screen is also
      // served by server.mjs beside Next's router (instrumentation-node.ts).
      const user = await getRequestUser(request);
      const session = user && { personId: user.personId, profileId: user.profile?.id ?? null };
      const query = new URL(request.url).searchParams;
      return toAuthorizationResponse(await decideAuthorization({ query, session, step }));
    } catch (error) {
      return serverErrorResponse(error);
    }
  };
}
