// @ts-check
// The route family of a request: the one small set of names the metrics label requests with
// (docs/operations.md, "Metrics"; docs/decisions/041-metrics-and-traces.md). Derived here and
// nowhere else, from the method and the path alone, so a label never carries an id, a query or
// whatever someone typed into a URL: the set below is all a label can be. Where a family is a
// partner channel it has the access log's channel name (AccessChannel: data_api, summary,
// user_info, lti_launch, oneroster). Plain JavaScript because server.mjs loads it with no build.
import { pathOf } from "./request-url.mjs";

export const ROUTE_FAMILIES = Object.freeze([
  "oauth_token",
  "oauth_authorize",
  "user_info",
  "lti_launch",
  "lti13",
  "data_api",
  "summary",
  "usage_api",
  "oneroster_token",
  "oneroster",
  "well_known",
  "sign_in",
  "assets",
  "next_static",
  "healthz",
  "demo",
  "pages",
  "other",
]);

/** @typedef {(typeof ROUTE_FAMILIES)[number]} TRouteFamily */

/** @type {Record<string, TRouteFamily>} */
const BY_FIRST_SEGMENT = {
  _next: "next_static",
  healthz: "healthz",
  assets: "assets",
  launch: "lti_launch",
  lti13: "lti13",
  oauth: "oauth_authorize",
  users: "user_info",
  ".well-known": "well_known",
  // The sign-in screens and next-auth's endpoints (credentials, session, sign-out), the upstream
  // providers' round trip and the sign-in card.
  login: "sign_in",
  entrar: "sign_in",
  sair: "sign_in",
  api: "sign_in",
  cracha: "sign_in",
  "demo-tool": "demo",
  "demo-app": "demo",
};

/** @type {Record<string, TRouteFamily>} */
const MANAGER_API = { data: "data_api", summary: "summary", usage: "usage_api" };

/**
 * The family of a request. `knownSegments` are the static segments of the app's routes
 * (log.mjs staticSegments, from Next's routes manifest): a path whose first segment is one of
 * them is one of the hub's pages; any other path is `other` (scanners, typos).
 * @param {string | undefined} method
 * @param {string} url the request's URL (path and query) or path
 * @param {ReadonlySet<string>} knownSegments
 * @returns {TRouteFamily}
 */
export function routeFamily(method, url, knownSegments) {
  const segments = pathOf(url).split("/");
  const first = segments[1] ?? "";
  if (first === "") return "pages";
  const direct = BY_FIRST_SEGMENT[first];
  if (direct) return direct;
  if (first === "lti") return method === "POST" ? "oauth_token" : "oauth_authorize";
  if (first === "manager") return (segments[2] === "v1" && MANAGER_API[segments[3] ?? ""]) || "other";
  if (first === "ims") return segments[2] === "oneroster" ? (segments[3] === "token" ? "oneroster_token" : "oneroster") : "other";
  return knownSegments.has(first) ? "pages" : "other";
}

/**
 * `2xx` … `5xx`: the status as a class, for the latency histogram (its buckets times the codes
 * would be many series for no use).
 * @param {number} status
 */
export function statusClass(status) {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "other";
}
