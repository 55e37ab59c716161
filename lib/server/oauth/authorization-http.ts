// HTTP for the authorization screen's route handlers (/lti/v1/oauth2/authorize, /oauth/continuar).
import { RETRY_AFTER_SECONDS } from "@/lib/errors";
import { toAppError } from "@/lib/server/http/error-response";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { log } from "@/lib/server/log.mjs";
import { decideAuthorization, type TAuthorizationOutcome, type TAuthorizationStep } from "./decide-authorization";
import { renderErrorPage } from "./render-error-page";

/**
 * Every response of the flow may carry a code or token in its Location: never cached. No CORS
 * headers: this is a browser navigation, never a cross-origin fetch (DESIGN.md).
 */
const NO_STORE = { "Cache-Control": "no-store", Pragma: "no-cache" };

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
 * For failures that are not the caller's: an OAuth-shaped answer that leaks nothing. A database
 * outage is a 503 `temporarily_unavailable` with Retry-After (RFC 6749 §4.1.2.1's code for an
 * overloaded or down server; the request can be repeated as is), anything else a 500 logged once.
 */
export function serverErrorResponse(error: unknown, headers: Record<string, string> = {}): Response {
  const appError = toAppError(error);
  if (appError.code === "unavailable") {
    return Response.json(
      { error: "temporarily_unavailable", error_description: "The database is unavailable. Try again in a few seconds." },
      { status: 503, headers: { ...NO_STORE, ...headers, "Retry-After": String(RETRY_AFTER_SECONDS) } },
    );
  }
  log().error({ err: error }, "OAuth endpoint failed");
  return Response.json(
    { error: "server_error", error_description: "Internal error. Try again later." },
    { status: 500, headers: { ...NO_STORE, ...headers } },
  );
}

/**
 * The GET handler of the authorization screen and of its resume step after sign-in: the same
 * request, decided for the signed-in session (decide-authorization.ts).
 */
export function authorizationGetHandler(step: TAuthorizationStep): (request: Request) => Promise<Response> {
  return async (request) => {
    if (isRouterFetch(request)) return routerFetchResponse();
    try {
      const user = await getCurrentUser();
      const session = user && { personId: user.personId, profileId: user.profile?.id ?? null };
      const query = new URL(request.url).searchParams;
      return toAuthorizationResponse(await decideAuthorization({ query, session, step }));
    } catch (error) {
      return serverErrorResponse(error);
    }
  };
}
