// @ts-check
// Requests server.mjs refuses before Next sees them, because Next answers them with a 500 (and
// logs an error) instead of a 4xx: a path it cannot decode, a NUL byte, a cross-origin server-action
// call, a multipart body it cannot parse. One check here covers every route and page, present and
// future. Plain JavaScript: node runs server.mjs with no build step. Decision: docs/decisions/009.

import { IncomingMessage, STATUS_CODES } from "node:http";
// Next's own check of the client router's state header, so the guard refuses exactly what Next
// would throw on (a pinned Next: the module's path is part of its build output, not of its API).
import nextRouterState from "next/dist/server/app-render/parse-and-validate-flight-router-state.js";
import { baseUrlFrom } from "../../base-url.mjs";
import { stampClientAddress } from "./client-address.mjs";
import { pathOf } from "./request-url.mjs";
import { errorPage, homeLink, otherAddressPage } from "./html-page.mjs";

const { parseAndValidateFlightRouterState } = nextRouterState;

/** @typedef {{ status: 400 | 403 | 413 | 414, message: string }} Rejection */

/**
 * The longest request target accepted (path and query). Next's trailing-slash redirect repeats
 * the URL in `Location` and `Refresh`; at 6 KiB both still fit the 16 KiB of response headers
 * an HTTP client such as Node's reads (proxies commonly refuse request lines over 8 KiB anyway).
 */
export const MAX_URL_BYTES = 6 * 1024;
/** @typedef {Pick<import("node:http").IncomingMessage, "method" | "url" | "headers"> & { socket?: { remoteAddress?: string } }} GuardedRequest */

/**
 * Why a request must be refused, or null to hand it to Next.
 * @param {GuardedRequest} req
 * @param {(path: string) => boolean} [isRouteHandler] which paths are route handlers (routeHandlerMatcher)
 * @returns {Rejection | null}
 */
export function checkRequest(req, isRouteHandler = () => false) {
  // Stamped here because every request passes through: the client's address, never its say.
  if (req.socket) stampClientAddress(req);
  const url = req.url ?? "/";
  if (Buffer.byteLength(url) > MAX_URL_BYTES) return { status: 414, message: "URL longa demais." };
  // A NUL byte is never valid in a path, a query or a form value the hub accepts; PostgreSQL
  // refuses it in text ("invalid byte sequence"), which surfaced as 500s further in.
  if (url.includes("\0") || /%00/.test(url)) return { status: 400, message: "A URL contém um byte nulo (%00)." };
  const path = pathOf(url);
  // Next decodes each dynamic segment with decodeURIComponent and answers a URIError with 500;
  // a malformed escape (%ZZ, a lone %) or bytes that are not UTF-8 (%FF%FE) fail the same here.
  try {
    decodeURIComponent(path);
  } catch {
    return { status: 400, message: "O caminho da URL tem uma codificação (%) inválida." };
  }
  const routerState = req.headers["next-router-state-tree"];
  if (routerState !== undefined) {
    try {
      parseAndValidateFlightRouterState(routerState);
    } catch {
      return { status: 400, message: "Cabeçalho Next-Router-State-Tree inválido." };
    }
  }
  if (req.method === "POST") {
    if (isPossibleServerAction(req, path, isRouteHandler) && !sameOriginAction(req.headers)) {
      // Next refuses these too, but by throwing, which becomes a 500.
      return { status: 403, message: "Chamada de ação de outra origem recusada." };
    }
    const type = headerValue(req.headers["content-type"]);
    if (type !== undefined && /^\s*multipart\/form-data\b/i.test(type) && !MULTIPART_BOUNDARY.test(type)) {
      return { status: 400, message: "Corpo multipart/form-data sem boundary válido." };
    }
  }
  return null;
}

/**
 * What Next treats as a server action, and checks the origin of: a POST to a page with a
 * `Next-Action` header, or with a form body (urlencoded or multipart: a form posted before the
 * page's scripts ran). Route handlers read their own bodies.
 * @param {GuardedRequest} req
 * @param {string} path
 * @param {(path: string) => boolean} isRouteHandler
 */
function isPossibleServerAction(req, path, isRouteHandler) {
  if (req.headers["next-action"] !== undefined) return true;
  const type = headerValue(req.headers["content-type"]) ?? "";
  return /^\s*(multipart\/form-data|application\/x-www-form-urlencoded)\b/i.test(type) && !isRouteHandler(path);
}

/** RFC 2046: 1–70 characters from bcharsnospace/space, optionally quoted, not ending in a space. */
const MULTIPART_BOUNDARY = /;\s*boundary=(?:"[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]"|[0-9A-Za-z'()+_,\-./:=?]{1,70})\s*(?:;|$)/i;

/**
 * The check Next makes before running a server action, done without throwing: the Origin's host
 * must equal X-Forwarded-Host (first value) or, without it, Host. A missing Origin passes, as in
 * Next (same-origin requests from old browsers); `Origin: null` and an unparsable one do not.
 * @param {import("node:http").IncomingHttpHeaders} headers
 */
function sameOriginAction(headers) {
  const origin = headerValue(headers.origin);
  if (origin === undefined) return true;
  let originHost;
  try {
    originHost = new URL(origin).host;
  } catch {
    return false;
  }
  const forwarded = headerValue(headers["x-forwarded-host"])?.split(",")[0]?.trim();
  const host = forwarded || headerValue(headers.host);
  return Boolean(originHost) && originHost.toLowerCase() === host?.toLowerCase();
}

/** @param {string | string[] | undefined} value */
function headerValue(value) {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Answers a refused request, never cached; HEAD gets the same status and headers without a body.
 * A person's browser (wantsPage) gets a page in Portuguese saying what happened, with a link to
 * the hub at its base URL: a form posted to a page from another address, a URL typed or pasted
 * wrong. Anything else gets JSON `{ "message": ... }`, which an API client parses. An unread
 * request body is drained by node:http (closing instead would reset a client still sending it).
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {Rejection} rejection
 */
export function sendRejection(req, res, rejection) {
  let body;
  if (wantsPage(req.headers)) {
    const page = errorPage(rejectionPage(rejection, baseUrlFrom(process.env)));
    body = page.html;
    res.setHeader("Content-Type", "text/html; charset=utf-8");
    res.setHeader("Content-Security-Policy", page.csp);
  } else {
    body = JSON.stringify({ message: rejection.message });
    res.setHeader("Content-Type", "application/json; charset=utf-8");
  }
  res.statusCode = rejection.status;
  res.setHeader("Content-Length", Buffer.byteLength(body));
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.end(req.method === "HEAD" ? undefined : body);
}

/**
 * Whether the answer is read by a person: a browser's navigation (`Sec-Fetch-Mode: navigate`), or
 * a client that asks for HTML (every browser's page request names text/html in Accept; fetch()
 * sends *\/*, Next's own requests text/x-component, API clients JSON or nothing).
 * @param {import("node:http").IncomingHttpHeaders} headers
 */
export function wantsPage(headers) {
  if (headerValue(headers["sec-fetch-mode"]) === "navigate") return true;
  return /(^|[\s,])text\/html\s*(;|,|$)/i.test(headerValue(headers.accept) ?? "");
}

/** @type {Record<Rejection["status"], string>} */
const REJECTION_TITLES = {
  400: "Pedido inválido",
  403: "Formulário enviado de outro endereço",
  413: "Envio grande demais",
  414: "Endereço longo demais",
};

/**
 * The page for a refusal: a form posted to a page from another address reads as the form routes'
 * same refusal (otherAddressPage); the rest say what was wrong and lead home.
 * @param {Rejection} rejection
 * @param {string} baseUrl
 * @returns {import("./html-page.mjs").TErrorPage}
 */
function rejectionPage(rejection, baseUrl) {
  if (rejection.status === 403) return otherAddressPage(baseUrl);
  return { status: rejection.status, title: REJECTION_TITLES[rejection.status], text: `${rejection.message} Nada foi alterado.`, link: homeLink(baseUrl) };
}

/**
 * Which request paths are route handlers (they read their own bodies and answer their own
 * errors), from Next's `app-path-routes-manifest.json`; any other path is a page, where Next
 * itself parses a multipart POST as a server action. A path goes where Next sends it: to the most
 * specific entry that matches it, pages included, segment by segment a static segment before a
 * dynamic one before a catch-all (`/cracha/recusado`, a page, wins over `/cracha/[token]`, a route).
 * @param {Record<string, string>} manifest
 * @returns {(path: string) => boolean}
 */
export function routeHandlerMatcher(manifest) {
  const entries = Object.entries(manifest).map(([entry, route]) => {
    const segments = route.split("/").filter(Boolean);
    const rank = segments.map((segment) => (/^\[\[\.\.\..+\]\]$/.test(segment) ? 3 : /^\[\.\.\..+\]$/.test(segment) ? 2 : /^\[.+\]$/.test(segment) ? 1 : 0));
    const source = segments
      .map((segment, i) => (rank[i] === 3 ? "(?:/.*)?" : rank[i] === 2 ? "/.+" : rank[i] === 1 ? "/[^/]+" : `/${segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}`))
      .join("");
    return { isRoute: entry.endsWith("/route"), rank, pattern: new RegExp(`^${source || ""}/?$`) };
  });
  /** @param {number[]} a @param {number[]} b */
  const moreSpecific = (a, b) => {
    for (let i = 0; i < Math.max(a.length, b.length); i++) if ((a[i] ?? -1) !== (b[i] ?? -1)) return (a[i] ?? -1) < (b[i] ?? -1);
    return false;
  };
  return (path) => {
    let best = null;
    for (const entry of entries) if (entry.pattern.test(path) && (best === null || moreSpecific(entry.rank, best.rank))) best = entry;
    return best?.isRoute ?? false;
  };
}

/** Beyond this, a body over the limit is no longer read to its end. */
const DRAIN_LIMIT = 16 * 1024 * 1024;

/** Next's default limit for a server action's body (`serverActions.bodySizeLimit`). */
export const ACTION_BODY_LIMIT = 1024 * 1024;

/**
 * A multipart POST to a page is a server action; Next parses its body with the platform's FormData
 * parser and answers a body it cannot parse with a 500. This reads the body (up to `limit`),
 * parses it with the same parser, and answers either a rejection or a request Next can read in
 * place of `req` (the same headers, socket and URL, the body replayed).
 * @param {import("node:http").IncomingMessage} req
 * @param {number} [limit]
 * @returns {Promise<{ rejection: Rejection } | { request: import("node:http").IncomingMessage }>}
 */
export async function checkMultipartBody(req, limit = ACTION_BODY_LIMIT) {
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  for await (const chunk of req) {
    size += chunk.length;
    if (size <= limit) chunks.push(chunk);
    // Past the limit the body is read to its end and dropped, so the 413 reaches a client still
    // sending and the connection stays usable; past DRAIN_LIMIT it is cut instead.
    else if (size > DRAIN_LIMIT) break;
  }
  if (size > limit) return { rejection: { status: 413, message: "Corpo grande demais para uma ação." } };
  const body = Buffer.concat(chunks);
  try {
    await new Response(body, { headers: { "content-type": headerValue(req.headers["content-type"]) ?? "" } }).formData();
  } catch {
    return { rejection: { status: 400, message: "Corpo multipart/form-data inválido." } };
  }
  const replay = new IncomingMessage(/** @type {import("node:net").Socket} */ (req.socket));
  replay.method = req.method;
  replay.url = req.url;
  replay.headers = req.headers;
  replay.rawHeaders = req.rawHeaders;
  replay.httpVersion = req.httpVersion;
  replay.httpVersionMajor = req.httpVersionMajor;
  replay.httpVersionMinor = req.httpVersionMinor;
  replay.complete = true; // else destroying it when read (autoDestroy) would destroy the shared socket
  replay.push(body);
  replay.push(null);
  return { request: replay };
}

/**
 * Whether `checkMultipartBody` applies: a multipart POST to a path that is not a route handler.
 * @param {GuardedRequest} req
 * @param {(path: string) => boolean} isRouteHandler
 */
export function isPageMultipartPost(req, isRouteHandler) {
  if (req.method !== "POST" || !/^\s*multipart\/form-data\b/i.test(headerValue(req.headers["content-type"]) ?? "")) return false;
  return !isRouteHandler(pathOf(req.url ?? "/"));
}

/** Sockets answerClientError has answered. */
const answered = new WeakSet();

/** How long a refused connection may keep sending before it is cut. */
const LINGER_MS = 5_000;

/**
 * Node's answer to a request its parser refuses (raw non-ASCII bytes in the request line, a
 * header too large, a broken chunk...), replacing the default that destroys the socket at once:
 * a client still sending its body then gets a connection reset instead of the answer. Here the
 * answer is written, the write side closed, and whatever the client still sends is read and
 * dropped for up to LINGER_MS (a "lingering close", as nginx does), so the client reads the 4xx.
 * @param {NodeJS.ErrnoException} error
 * @param {import("node:stream").Duplex} socket
 */
export function answerClientError(error, socket) {
  // Node's parser reports the same error again for every chunk that still arrives: answered once,
  // the rest is drained by the listener below.
  if (answered.has(socket)) return;
  answered.add(socket);
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === "HPE_HEADER_OVERFLOW" ? 431 : error.code === "ERR_HTTP_REQUEST_TIMEOUT" ? 408 : 400;
  socket.on("error", () => socket.destroy());
  socket.on("data", () => undefined);
  socket.resume(); // the parser stopped reading when it failed
  // No body: the request could not be parsed, so whether it was a HEAD (which must get none) is
  // not known; the status says it all.
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\nCache-Control: no-store\r\nContent-Length: 0\r\n\r\n`);
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}
