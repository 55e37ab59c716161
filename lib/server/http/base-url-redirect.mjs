// @ts-check
// A page asked for at another address of the hub (http://127.0.0.1:3000 when the base URL is
// http://localhost:3000, the server's IP, an old host name) is sent to the base URL before anything
// is shown. Browsers keep cookies per host and send a form's Origin from the address the page was
// opened at: there the session cookie is missing, and the sign-in form's post is refused as coming
// from another origin (form-post.ts) after the person has typed the password (issue #42).
//
// Only pages a person opens: route handlers are APIs and protocol endpoints whose callers use the
// addresses the hub published (the discovery document, the Data API's base), and a redirect would
// break a client that does not follow one (health checks by IP, a POST's body). /_next/ assets
// load from the page's own address, which is then the base URL.
//
// 307, not 308: the base URL is configuration. A permanent redirect is cached by browsers with no
// expiry, so a wrong HUB_BASE_URL, once corrected, would keep sending every browser that saw it to
// the wrong host; a temporary one (with no-store) is asked again each time. GET and HEAD only.
import { pathOf } from "./request-url.mjs";

/** @typedef {Pick<import("node:http").IncomingMessage, "method" | "url" | "headers"> & { socket?: { remoteAddress?: string } }} TRedirectRequest */

/**
 * Route handlers that answer a person's browser with a page, which therefore go to the base URL
 * too: the launch page (GET /launch/{placementId}, served beside Next as a hot route).
 */
const PAGE_ROUTE_HANDLERS = [/^\/launch\/[^/]+\/?$/];

/**
 * The base URL as a URL, or an error naming HUB_BASE_URL (server.mjs stops at start on it).
 * @param {string} baseUrl
 * @returns {URL}
 */
export function parseBaseUrl(baseUrl) {
  try {
    return new URL(baseUrl);
  } catch {
    throw new Error(`HUB_BASE_URL: "${baseUrl}" is not a URL`);
  }
}

/**
 * Where to send a request for a page of the hub asked for at another host: the base URL's origin
 * with the same path and query, or null to serve it where it was asked.
 *
 * Not behind a reverse proxy: a request carrying X-Forwarded-Host, or coming from a proxy
 * HUB_TRUSTED_PROXIES names (docs/decisions/037), is served as it is. Such a proxy may rewrite
 * Host to the upstream's address (nginx's default `proxy_set_header Host $proxy_host`), and a
 * redirect to the public host would come back through it with the same Host: a loop. The proxy
 * decides which host the public reaches, not the hub.
 * @param {{ baseUrl: URL; isRouteHandler: (path: string) => boolean; trust: (address: string, hop: number) => boolean }} options
 * @returns {(req: TRedirectRequest) => string | null}
 */
export function baseUrlRedirect({ baseUrl, isRouteHandler, trust }) {
  const origin = baseUrl.origin;
  return (req) => {
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    const url = req.url ?? "/";
    // Origin-form only: an absolute-form target ("GET http://host/ HTTP/1.1") names its own host.
    if (!url.startsWith("/")) return null;
    const host = headerValue(req.headers.host);
    // HTTP/1.0 without Host: nothing says which address the client used.
    if (host === undefined || isHost(host, baseUrl)) return null;
    if (req.headers["x-forwarded-host"] !== undefined) return null;
    const peer = req.socket?.remoteAddress;
    if (peer && trust(peer, 0)) return null;
    const path = pathOf(url);
    if (path.startsWith("/_next/")) return null;
    if (isRouteHandler(path) && !PAGE_ROUTE_HANDLERS.some((pattern) => pattern.test(path))) return null;
    return origin + url;
  };
}

/**
 * Whether a Host header names the base URL's host: compared as the URL parser reads it, so case
 * and the scheme's default port (`hub.example:443` for https) do not count.
 * @param {string} host
 * @param {URL} baseUrl
 */
function isHost(host, baseUrl) {
  // Nearly every request: the browser sends the host exactly as the base URL has it, so no URL is parsed.
  if (host === baseUrl.host) return true;
  try {
    return new URL(`${baseUrl.protocol}//${host}`).host === baseUrl.host;
  } catch {
    return false;
  }
}

/**
 * The redirect itself: no body, never cached (see 307 above).
 * @param {import("node:http").ServerResponse} res
 * @param {string} location
 */
export function sendBaseUrlRedirect(res, location) {
  res.statusCode = 307;
  res.setHeader("Location", location);
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Content-Length", 0);
  res.end();
}

/** @param {string | string[] | undefined} value */
function headerValue(value) {
  return Array.isArray(value) ? value[0] : value;
}
