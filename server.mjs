// @ts-check
// The hub's production server: Next's request handler behind the hub's own compression, which
// Next cannot be told to do (docs/decisions/007-compression-in-a-custom-server.md), a guard that
// refuses with a 4xx what Next would answer with a 500, a request id and JSON logs, and a
// graceful shutdown (docs/decisions/009-request-guard-logging-shutdown.md). A page's notFound()
// is answered with Next's not-found route rendered on the server, not Next's empty error document
// (docs/decisions/036-server-rendered-not-found.md). A page asked for at another address of the hub
// is sent to HUB_BASE_URL first (lib/server/http/base-url-redirect.mjs). Prometheus metrics are
// served on a listener of their own (HUB_METRICS_PORT), traces sent with OpenTelemetry when
// configured (docs/decisions/041-metrics-and-traces.md).
// `next({ dev: false })` goes through the same router-server as `next start`. next.config.mjs
// (distDir from HUB_NEXT_DIST_DIR, `compress: false`) is loaded from `dir` as `next start` loads it.
import { readFileSync } from "node:fs";
import http from "node:http";
import path from "node:path";
import { baseUrlFrom } from "./lib/base-url.mjs";
import { baseUrlRedirect, parseBaseUrl, sendBaseUrlRedirect } from "./lib/server/http/base-url-redirect.mjs";
import { configuredTrust } from "./lib/server/http/client-address.mjs";
import { compressionEnabled, compressWhole, createCompression } from "./lib/server/http/compression.mjs";
import { drainServer, trackResponses } from "./lib/server/http/graceful-shutdown.mjs";
import { createKeptPages } from "./lib/server/http/kept-pages.mjs";
import { mayReplaceErrorDocument, NOT_FOUND_ROUTE, replaceErrorDocument } from "./lib/server/http/not-found-document.mjs";
import { answerClientError, checkMultipartBody, checkRequest, isPageMultipartPost, routeHandlerMatcher, sendRejection } from "./lib/server/http/request-guard.mjs";
import { pathOf } from "./lib/server/http/request-url.mjs";
import { routeFamily, statusClass } from "./lib/server/http/route-family.mjs";
import { consoleArgsToLine, log, pathForLog, requestIdFrom, requestLineLog, runWithRequestId, staticSegments } from "./lib/server/log.mjs";
import { metricsListenSettings, startMetricsServer } from "./lib/server/metrics/metrics-server.mjs";
import { metrics } from "./lib/server/metrics/registry.mjs";
import { startTracing, tagRequestSpan } from "./lib/server/tracing/start-tracing.mjs";

// React and Next pick their production builds when first loaded, so this precedes importing next.
// (Next's types make NODE_ENV read-only; at run time it is an ordinary variable.)
/** @type {Record<string, string | undefined>} */ (process.env).NODE_ENV ??= "production";

const logger = log();
// Next and libraries report failures with console.error/warn, often with an object or two: one
// JSON line each (the Error's stack in `err`, other objects printed shallowly), with the request id.
console.error = (...args) => logger.error(...consoleArgsToLine(args));
console.warn = (...args) => logger.warn(...consoleArgsToLine(args));
process.on("uncaughtException", (error) => {
  logger.fatal({ err: error }, "Uncaught exception");
  process.exit(1);
});
process.on("unhandledRejection", (reason) => logger.error({ err: reason }, "Unhandled promise rejection"));

// Settings read on every request: a wrong one stops the start, not a request.
/** @type {URL} */
let baseUrl;
/** @type {ReturnType<typeof metricsListenSettings>} */
let metricsSettings;
try {
  configuredTrust();
  baseUrl = parseBaseUrl(baseUrlFrom(process.env));
  metricsSettings = metricsListenSettings(process.env);
} catch (error) {
  logger.fatal(`Invalid configuration: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}

/**
 * Work the shutdown awaits after the last request (instrumentation.ts adds the access log's last
 * batch through hot-routes.ts's registerShutdownTask; this adds the traces' last export).
 * @param {() => Promise<void>} task
 */
function onShutdown(task) {
  const holder = /** @type {Record<symbol, Array<() => Promise<void>> | undefined>} */ (/** @type {unknown} */ (globalThis));
  (holder[Symbol.for("hub.shutdownTasks")] ??= []).push(task);
}
// Before Next is loaded, so its http and pg modules are the patched ones. Nothing is loaded without OTEL_* settings.
const tracing = await startTracing(process.env, { ignorePorts: metricsSettings ? [metricsSettings.port] : [], onShutdown });

const { default: next } = await import("next");

const port = Number(process.env.PORT ?? 3000);
/** A request still running this long after SIGTERM is cut, so the process does exit. */
const SHUTDOWN_GRACE_MS = 10_000;

const app = next({ dev: false, dir: import.meta.dirname, port });
await app.prepare();
const handle = app.getRequestHandler();
// The routes answered without Next's router, registered by instrumentation.ts
// (lib/server/http/hot-routes.ts, docs/decisions/021-hot-routes-beside-next.md). In production Next
// runs register() when its first request arrives: server.mjs sends itself one (/healthz) once
// listening, and until then these paths go through Next, to the same handlers.
/** @typedef {{ match(req: http.IncomingMessage): (((req: http.IncomingMessage, res: http.ServerResponse) => Promise<void>) & { sendsWhole?: true }) | null }} HotRoutes */
const HOT_ROUTES = "hub.hotRoutes";

/**
 * What instrumentation.ts left on globalThis under `name` (its registries are symbol-keyed there,
 * the one place both Next's build and this plain module can reach).
 * @param {string} name
 * @returns {unknown}
 */
function registered(name) {
  return /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis))[Symbol.for(name)];
}

/** @type {HotRoutes | undefined} */
let hotRoutes;
// Pages sent again as Next rendered them while their key holds (lib/server/http/kept-pages.mjs,
// docs/decisions/044-kept-pages.md); registered by instrumentation.ts like the hot routes.
/** @typedef {{ match(req: http.IncomingMessage): Promise<string | null> | null }} KeptPageRoutes */
const KEPT_PAGES = "hub.keptPages";
/** @type {KeptPageRoutes | undefined} */
let keptPageRoutes;
const compress = compressionEnabled() ? createCompression() : null;
const keptPages = createKeptPages({ compressed: compress !== null });
const accessLog = logger.isLevelEnabled("info");
const requestLine = requestLineLog();
const routesManifest = readRoutesManifest();
/** Path segments the access log may show (see pathForLog). */
const knownSegments = staticSegments(routesManifest);
const isRouteHandler = routeHandlerMatcher(routesManifest);
// Without the manifest every path would look like a page, the APIs included: then nothing is
// redirected, and the hub answers at any address as before.
const toBaseUrl = Object.keys(routesManifest).length > 0 ? baseUrlRedirect({ baseUrl, isRouteHandler, trust: configuredTrust() }) : null;
/** The URL asked for, where server.mjs had Next render another route (renderNotFound). */
/** @type {WeakMap<http.IncomingMessage, string>} */
const requestedUrl = new WeakMap();

/** @returns {Record<string, string>} */
function readRoutesManifest() {
  const distDir = path.join(import.meta.dirname, process.env.HUB_NEXT_DIST_DIR || ".next");
  try {
    return JSON.parse(readFileSync(path.join(distDir, "app-path-routes-manifest.json"), "utf8"));
  } catch (error) {
    logger.warn({ err: error }, "No routes manifest: the access log masks every path segment");
    return {};
  }
}

// The Data API (and the usage API beside it) without org_id, with a trailing slash, is the
// contract's "org_id not informed" (400 after the key check), not Next's 308 to the same URL
// without the slash.
const DATA_API_WITHOUT_ORG = /^\/manager\/v1\/(data|summary|usage)\/(?=\?|$)/;

const server = http.createServer((req, res) => {
  const requestId = requestIdFrom(req.headers["x-request-id"]);
  res.setHeader("X-Request-Id", requestId);
  runWithRequestId(requestId, () => {
    if (accessLog) logAccess(req, res);
    if (metricsSettings) countRequest(req, res);
    if (tracing) tagRequestSpan({ requestId, method: req.method ?? "GET", route: pathForLog(req.url ?? "/", knownSegments), family: routeFamily(req.method, req.url ?? "/", knownSegments) });
    const rejection = checkRequest(req, isRouteHandler);
    if (rejection) return sendRejection(req, res, rejection);
    const location = toBaseUrl?.(req);
    if (location) return sendBaseUrlRedirect(res, location);
    if (req.url) req.url = req.url.replace(DATA_API_WITHOUT_ORG, "/manager/v1/$1");
    if (!isPageMultipartPost(req, isRouteHandler)) return serve(req, res);
    // A server action's multipart body: parsed once here, as Next would, so a broken one is a 400.
    checkMultipartBody(req).then(
      (checked) => ("rejection" in checked ? sendRejection(req, res, checked.rejection) : serve(checked.request, res)),
      () => sendRejection(req, res, { status: 400, message: "Corpo da requisição incompleto." }), // the client went away mid-body
    );
  });
});

/**
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 */
function serve(req, res) {
  try {
    route(req, res);
  } catch (error) {
    // A failure before any handler ran (a route's matcher): this request's 500, not the process's end.
    logger.error({ err: error }, "Request routing failed");
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  }
}

/**
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 */
function route(req, res) {
  hotRoutes ??= /** @type {HotRoutes | undefined} */ (registered(HOT_ROUTES));
  const hot = hotRoutes?.match(req);
  // A plain endpoint compresses its one-string answer itself, as the middleware would (hot-routes.ts);
  // a page of Next's is compressed whole when it ends (compressWhole); route handlers, which may
  // stream, and Next's static files go through the streaming middleware.
  if (compress && !hot?.sendsWhole) (hot || !isPage(req.url ?? "/") ? compress : compressWhole)(req, res);
  if (hot) return run(hot(req, res), res);
  keptPageRoutes ??= /** @type {KeptPageRoutes | undefined} */ (registered(KEPT_PAGES));
  const keying = keptPageRoutes?.match(req);
  // A key that could not be read (the database is down): Next renders the page, and answers as it does.
  if (keying) return run(keying.then((key) => serveKept(req, res, key), () => toNext(req, res)), res);
  toNext(req, res);
}

/**
 * Whether a URL is one of Next's pages (not a route handler, not one of Next's own files).
 * @param {string} url
 */
function isPage(url) {
  const path = pathOf(url);
  return !path.startsWith("/_next/") && !isRouteHandler(path);
}

/**
 * A kept page's request, once its key is read: the page as it was kept under that key, or Next's
 * render, kept for the next request with the same URL and key (null: rendered, not kept).
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 * @param {string | null} key
 */
function serveKept(req, res, key) {
  const url = req.url ?? "/";
  if (key !== null && keptPages.send(req, res, url, key)) return;
  if (key !== null) keptPages.keep(res, url, key);
  toNext(req, res);
}

/**
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 */
function toNext(req, res) {
  // A page's notFound() answered with the not-found page rendered here, not Next's empty error
  // document (lib/server/http/not-found-document.mjs, docs/decisions/036-server-rendered-not-found.md).
  if (mayReplaceErrorDocument(req) && !isRouteHandler(pathOf(req.url ?? "/"))) replaceErrorDocument(res, () => renderNotFound(req, res));
  run(handle(req, res), res);
}

/**
 * Next's not-found route on `res`, for a request whose page called notFound(): the root layout
 * with app/not-found.tsx, status 404, as Next answers a URL that matches no route. The access log
 * keeps the path asked for.
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 */
function renderNotFound(req, res) {
  requestedUrl.set(req, req.url ?? "/");
  req.url = NOT_FOUND_ROUTE;
  run(handle(req, res), res);
}

/**
 * @param {Promise<void>} handling
 * @param {http.ServerResponse} res
 */
function run(handling, res) {
  handling.catch((error) => {
    // Next answers its own errors; this is for a failure of the handler itself.
    logger.error({ err: error }, "Request handler failed");
    if (!res.headersSent) res.statusCode = 500;
    res.end();
  });
}
trackResponses(server);
server.on("clientError", answerClientError);

/**
 * One line per request once it is answered: method, path without its query string and with only
 * the routes' static segments (pathForLog), status and duration. Never headers or bodies.
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 */
function logAccess(req, res) {
  const start = performance.now();
  res.once("close", () => {
    requestLine.info(
      {
        method: req.method,
        path: pathForLog(requestedUrl.get(req) ?? req.url ?? "/", knownSegments),
        status: res.statusCode,
        ms: Math.round((performance.now() - start) * 1000) / 1000,
        ...(res.writableFinished ? {} : { aborted: true }),
      },
      "request",
    );
  });
}

const { httpRequests, httpDuration } = metrics();
/**
 * Counts the request once it is answered, by route family (route-family.mjs) and status, with its
 * duration, into the metrics the metrics listener serves.
 * @param {http.IncomingMessage} req
 * @param {http.ServerResponse} res
 */
function countRequest(req, res) {
  const family = routeFamily(req.method, req.url ?? "/", knownSegments);
  const end = httpDuration.startTimer({ family });
  res.once("close", () => {
    httpRequests.inc({ family, code: String(res.statusCode) });
    end({ status_class: statusClass(res.statusCode) });
  });
}

server.on("error", (error) => {
  const code = /** @type {NodeJS.ErrnoException} */ (error).code;
  logger.fatal(code === "EADDRINUSE" ? `Port ${port} is already in use: stop what uses it or set PORT.` : `The server failed: ${error.message}`);
  process.exit(1);
});

// Idle keep-alive connections stay open 65 s, past the 60 s idle timeout of the usual proxies and
// load balancers in front (nginx, AWS ALB): a proxy then never sends a request on a connection
// the hub is closing at that moment, which it would answer with a 502. Node's 5 s default made the
// same race for any client that waits about 5 s between two requests (a Playwright test read
// ECONNRESET). The headers of a request must still arrive within 66 s, a little above
// keepAliveTimeout. SIGTERM closes idle connections at once (graceful shutdown).
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

// No host: all interfaces, as `next start` listens.
server.listen(port, () => {
  // Any answer will do: the request only has Next load instrumentation.ts (see HOT_ROUTES).
  http.get({ port, path: "/healthz", headers: { "x-request-id": "startup" } }, (res) => res.resume()).on("error", () => undefined);
  const proxies = process.env.HUB_TRUSTED_PROXIES?.trim() ? `trusted proxies ${process.env.HUB_TRUSTED_PROXIES.trim()}` : "no trusted proxy";
  logger.info(`Hub ready on http://localhost:${port} (compression ${compress ? "br q4 / gzip 1" : "off: HUB_COMPRESSION=0"}, ${proxies}${tracing ? ", traces on" : ""})`);
});

if (metricsSettings) {
  const { host, port: metricsPort } = metricsSettings;
  startMetricsServer(metricsSettings, logger).then(
    () => logger.info(`Metrics on http://${host.includes(":") ? `[${host}]` : host}:${metricsPort}/metrics`),
    (error) => {
      logger.fatal(error.code === "EADDRINUSE" ? `HUB_METRICS_PORT ${metricsPort} is already in use: stop what uses it or set another.` : `The metrics listener failed: ${error.message}`);
      process.exit(1);
    },
  );
}

/**
 * SIGTERM/SIGINT: stop accepting, close idle keep-alive connections at once, let the requests in
 * flight finish (up to SHUTDOWN_GRACE_MS), then exit 0.
 * @param {NodeJS.Signals} signal
 */
async function shutdown(signal) {
  logger.info(`${signal}: shutting down`);
  const { forced } = await drainServer(server, { graceMs: SHUTDOWN_GRACE_MS }); // same promise on a second signal
  if (forced) logger.warn(`Requests still running after ${SHUTDOWN_GRACE_MS} ms were cut`);
  // What the requests left to write (the access log's last batch), registered by instrumentation.ts.
  const tasks = /** @type {Array<() => Promise<void>> | undefined} */ (registered("hub.shutdownTasks")) ?? [];
  await Promise.all(tasks.map((task) => task().catch((error) => logger.error({ err: error }, "A shutdown task failed"))));
  await app.close().catch((error) => logger.error({ err: error }, "Closing Next failed"));
  process.exit(0);
}
process.on("SIGINT", shutdown);
process.on("SIGTERM", shutdown);
