// HTTP for the authorization screen (/lti/v1/oauth2/authorize, /oauth/continuar): a plain endpoint
// (docs/decisions/033), which the route files adapt to Next and server.mjs serves on node:http.
import { getRequestUser } from "@/lib/server/auth/current-user";
import type { TPlainEndpoint, TPlainRequest, TPlainResponse } from "@/lib/server/http/plain-endpoint";
import { NO_STORE } from "./no-store";
import { serverErrorResult } from "./server-error";
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
export function isRouterFetch(request: Pick<TPlainRequest, "header">): boolean {
  return request.header("rsc") === "1" || request.header("next-router-prefetch") !== null;
}

const ROUTER_FETCH_ANSWER: TPlainResponse = Object.freeze({
  status: 200,
  headers: { ...NO_STORE, "Content-Type": "text/html; charset=utf-8" },
  text: "<!doctype html><title>Hub Educacional</title>",
});

export function toAuthorizationResult(outcome: TAuthorizationOutcome): TPlainResponse {
  switch (outcome.kind) {
    case "error_page":
      return { status: 400, headers: { ...NO_STORE, "Content-Type": "text/html; charset=utf-8" }, text: renderErrorPage(outcome.error) };
    case "redirect":
      return { status: 302, headers: { ...NO_STORE, Location: outcome.location } };
    case "sign_in":
      return { status: 302, headers: { ...NO_STORE, Location: outcome.loginUrl } };
    case "choose_profile":
      return { status: 302, headers: { ...NO_STORE, Location: outcome.pickerUrl } };
  }
}

/**
 * The GET of the authorization screen and of its resume step after sign-in: the same request,
 * decided for the signed-in session (decide-authorization.ts).
 */
export function authorizationGetEndpoint(step: TAuthorizationStep): TPlainEndpoint {
  return async (request) => {
    if (isRouterFetch(request)) return ROUTER_FETCH_ANSWER;
    try {
      // The session from the request's own cookie (no Next request context): the screen is also
      // served by server.mjs beside Next's router (instrumentation-node.ts).
      const user = await getRequestUser(request);
      const session = user && { personId: user.personId, profileId: user.profile?.id ?? null };
      return toAuthorizationResult(await decideAuthorization({ query: request.query, session, step }));
    } catch (error) {
      return serverErrorResult(error);
    }
  };
}
