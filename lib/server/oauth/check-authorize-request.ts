import {
  validateAuthorizeRequest,
  type AuthorizeClient,
  type AuthorizeParams,
  type AuthorizeRequest,
} from "@/lib/oauth/authorize-request";
import { OAuthError } from "@/lib/oauth/errors";
import { findApplication, type TOAuthApplication } from "./find-application";

export type TAuthorizeCheck =
  | { kind: "ok"; request: AuthorizeRequest; application: TOAuthApplication; params: AuthorizeParams }
  /** Unknown client or unregistered redirect URI: shown to the person, never redirected. */
  | { kind: "error_page"; error: OAuthError; application: TOAuthApplication | null }
  /** Any later failure: reported to the (now trusted) redirect URI. */
  | { kind: "redirect_error"; error: OAuthError; location: string };

/** Next's client router marks its fetches with this parameter; it is not the partner's. */
const ROUTER_MARKER = "_rsc";

/**
 * The query as a record. RFC 6749 §3.1: parameters MUST NOT be included more than once. A repeat
 * is refused with an error page: until client_id and redirect_uri are known to be unique and
 * registered there is no trusted place to redirect to.
 */
function readParams(query: URLSearchParams): AuthorizeParams | OAuthError {
  const params: Record<string, string> = {};
  for (const [name, value] of query) {
    if (name === ROUTER_MARKER) continue;
    if (Object.hasOwn(params, name)) return new OAuthError("invalid_request", `${name.slice(0, 64)} is repeated`);
    params[name] = value;
  }
  return params;
}

function toAuthorizeClient(app: TOAuthApplication): AuthorizeClient {
  return { clientId: app.clientId, redirectUris: app.redirectUris, defaultResponseType: app.defaultResponseType };
}

/** Validates GET /lti/v1/oauth2/authorize (rules in lib/oauth/authorize-request.ts, in order). */
export async function checkAuthorizeRequest({ query }: { query: URLSearchParams }): Promise<TAuthorizeCheck> {
  const params = readParams(query);
  if (params instanceof OAuthError) return { kind: "error_page", error: params, application: null };
  const application = await findApplication({ clientId: params.client_id });
  const validation = validateAuthorizeRequest(params, application && toAuthorizeClient(application));
  if (validation.kind === "error_page") return { kind: "error_page", error: validation.error, application };
  if (validation.kind === "redirect_error") return { kind: "redirect_error", error: validation.error, location: validation.location };
  if (!application) return { kind: "error_page", error: new OAuthError("invalid_client", "Unknown client_id"), application };
  return { kind: "ok", request: validation.request, application, params };
}

/** The query to carry through sign-in and the profile picker (without the router marker). */
export function carriedQuery(query: URLSearchParams): string {
  const copy = new URLSearchParams(query);
  copy.delete(ROUTER_MARKER);
  return copy.toString();
}
