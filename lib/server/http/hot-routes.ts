// The routes a school's morning hits hardest — the authorization screen, the token exchange, user info and the launch page —
// answered by server.mjs without Next's router, which costs about 1 ms of CPU per request on its
// own (docs/decisions/021-hot-routes-beside-next.md). They are the same handlers as the route
// files': a route handler, bridged from node:http to its Request/Response, or a plain endpoint
// (plain-endpoint.ts), which the route file adapts to Next and this module serves on node:http
// without building a Request or a Response (docs/decisions/033).
//
// instrumentation.ts (compiled by Next, run on its first request) registers the handlers here; the
// registry lives on globalThis because server.mjs, a plain module outside Next's build, reads it.
import type { IncomingMessage, ServerResponse } from "node:http";
import { NextRequest } from "next/server";
import { env } from "@/lib/env";
import { log } from "@/lib/server/log.mjs";
import { plainRequest, type TPlainEndpoint, type TPlainRequest } from "./plain-endpoint";
import { CLIENT_ADDRESS_HEADER } from "./client-address.mjs";
import { compressionEnabled, encodeWhole } from "./compression.mjs";
import { pathOf, searchOf } from "./request-url.mjs";
import { applySecurityHeaders } from "./security-headers.mjs";

type TWebHandler = (request: NextRequest, params: Record<string, string>) => Promise<Response> | Response;

type TMethod = "GET" | "POST" | "OPTIONS";

export type THotRoute =
  | {
      method: TMethod;
      /** The whole path (no query): a string, or a pattern whose named groups are the params. */
      path: string | RegExp;
      handler: TWebHandler;
    }
  | { method: TMethod; path: string | RegExp; endpoint: TPlainEndpoint };

/**
 * Serves a request. `sendsWhole`: a plain endpoint's, whose answer is one string, compressed here
 * as the middleware would (compression.mjs's encodeWhole), so server.mjs does not wrap the response
 * in the streaming middleware first.
 */
export type THotRouteServer = ((req: IncomingMessage, res: ServerResponse) => Promise<void>) & { sendsWhole?: true };

export interface THotRoutes {
  /** The function that serves this request, or null to hand it to Next. */
  match(req: IncomingMessage): THotRouteServer | null;
}

const REGISTRY_KEY = Symbol.for("hub.hotRoutes");
type TGlobalWithRoutes = typeof globalThis & { [REGISTRY_KEY]?: THotRoutes };

/**
 * The client's address as server.mjs's guard stamped it on `req.headers` (client-address.mjs),
 * never a value of that name the client sent, which the raw headers still hold.
 */
function stampedAddress(req: IncomingMessage): string | null {
  const stamped = req.headers[CLIENT_ADDRESS_HEADER];
  return typeof stamped === "string" ? stamped : null;
}

function requestHeaders(req: IncomingMessage): Headers {
  const headers = new Headers();
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() !== CLIENT_ADDRESS_HEADER) headers.append(raw[i]!, raw[i + 1]!);
  const address = stampedAddress(req);
  if (address !== null) headers.set(CLIENT_ADDRESS_HEADER, address);
  return headers;
}

/**
 * The request's body as a web stream, and `release()` for when the answer is sent. A handler may
 * stop reading (a body over its limit, or one it refuses by its Content-Length without reading):
 * the rest of the body is then read and discarded, never left unread and never by destroying the
 * request (Readable.toWeb's cancel does), either of which would cost the client its connection
 * and fail the next request it sends on it.
 */
function bodyStream(req: IncomingMessage): { stream: ReadableStream<Uint8Array>; release(): void } {
  let onData: ((chunk: Buffer) => void) | undefined;
  let cancelled = false;
  const release = () => {
    cancelled = true;
    if (onData) req.off("data", onData);
    req.resume();
  };
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      onData = (chunk) => {
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) req.pause();
      };
      req.on("data", onData);
      req.once("end", () => cancelled || controller.close());
      req.once("error", (error) => cancelled || controller.error(error));
    },
    pull() {
      req.resume();
    },
    cancel: release,
  });
  return { stream, release };
}

/** What Next does with a route handler that throws: log it, answer a bare 500. */
function answerFailure(error: unknown, res: ServerResponse): void {
  log().error({ err: error }, "Route handler failed");
  res.statusCode = 500;
  res.setHeader("Cache-Control", "no-store");
  res.end();
}

/** Runs `handler` for `req` and writes its Response to `res` (status, headers, cookies, body). */
async function serveWith(handler: TWebHandler, params: Record<string, string>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const method = req.method ?? "GET";
  const hasBody = method !== "GET" && method !== "HEAD";
  const body = hasBody ? bodyStream(req) : null;
  // Handlers build absolute URLs from HUB_BASE_URL, never from Host; the request's URL gets the same origin.
  const request = new NextRequest(new URL(req.url ?? "/", env().HUB_BASE_URL), {
    method,
    headers: requestHeaders(req),
    ...(body ? { body: body.stream, duplex: "half" } : {}),
  });
  let response: Response;
  try {
    response = await handler(request, params);
  } catch (error) {
    answerFailure(error, res);
    body?.release();
    return;
  }
  res.statusCode = response.status;
  for (const [name, value] of response.headers) if (name !== "set-cookie") res.setHeader(name, value);
  // What next.config.mjs adds to Next's answers, so a route answers alike by either way.
  applySecurityHeaders(request.nextUrl.pathname, (name, value) => res.setHeader(name, value));
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  await sendBody(response.body, res);
  body?.release();
}

/**
 * The body as text, or null when it is over `maxBytes` (by its Content-Length, or once more than
 * that has arrived): what readRequestBody does for a web Request. What is left unread is
 * discarded after the answer (servePlain), never left in the connection.
 */
function readBody(req: IncomingMessage, maxBytes: number): Promise<string | null> {
  const declared = Number(req.headers["content-length"] ?? "0");
  if (Number.isFinite(declared) && declared > maxBytes) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= maxBytes) return void chunks.push(chunk);
      done();
      resolve(null);
    };
    const onEnd = () => {
      done();
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const onError = (error: Error) => {
      done();
      reject(error);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}

/**
 * A header's reader for a plain request: headersDistinct keeps every value of a repeated header
 * (req.headers drops all but the first of some, Authorization among them), so a repeated header
 * reads as it does through Next.
 */
function headerOf(req: IncomingMessage): (name: string) => string | null {
  return (name) => {
    const lower = name.toLowerCase();
    return lower === CLIENT_ADDRESS_HEADER ? stampedAddress(req) : (req.headersDistinct[lower]?.join(", ") ?? null);
  };
}

/** Whether this process compresses (HUB_COMPRESSION), read once as server.mjs reads it. */
let compresses: boolean | undefined;
const compressing = () => (compresses ??= compressionEnabled());

/** Runs a plain endpoint for `req` and writes its answer to `res`, as routeHandler does through Next. */
async function servePlain(endpoint: TPlainEndpoint, params: Record<string, string>, path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let answer;
  try {
    const request = plainRequest(headerOf(req), (maxBytes) => readBody(req, maxBytes), searchOf(req.url ?? "/"));
    answer = await endpoint(request, params);
  } catch (error) {
    answerFailure(error, res);
    req.resume();
    return;
  }
  res.statusCode = answer.status;
  for (const [name, value] of Object.entries(answer.headers)) res.setHeader(name, value);
  applySecurityHeaders(path, (name, value) => res.setHeader(name, value));
  if (answer.json !== undefined && !res.hasHeader("content-type")) res.setHeader("Content-Type", "application/json");
  const text = answer.json !== undefined ? JSON.stringify(answer.json) : answer.text;
  res.end(text === undefined || !compressing() ? text : encodeWhole(req, res, text));
  // A body the endpoint did not read (or stopped reading) is discarded, keeping the connection.
  req.resume();
}

/**
 * Writes a response body to `res` as it is produced: a page in one write, a stream (a whole Data
 * API feed) chunk by chunk, pulled only as fast as the client reads, and cancelled when the client
 * goes away, so the producer stops reading the database. One `drain` listener for the whole
 * response (with compression it sits on the zlib stream, where a listener per wait would pile up).
 */
async function sendBody(body: ReadableStream<Uint8Array> | null, res: ServerResponse): Promise<void> {
  if (!body) return void res.end();
  const reader = body.getReader();
  const first = await reader.read();
  if (first.done) return void res.end();
  let next = await reader.read();
  if (next.done) return void res.end(first.value);
  let gone = false;
  let wake: (() => void) | null = null;
  const resume = () => {
    const resolve = wake;
    wake = null;
    resolve?.();
  };
  const onClose = () => {
    gone = true;
    resume();
    reader.cancel().catch(() => undefined);
  };
  res.on("drain", resume);
  res.once("close", onClose);
  const write = async (chunk: Uint8Array) => {
    if (!res.write(chunk) && !gone) await new Promise<void>((resolve) => (wake = resolve));
  };
  try {
    await write(first.value);
    while (!next.done && !gone) {
      await write(next.value);
      if (!gone) next = await reader.read();
    }
    if (!gone) res.end();
  } catch (error) {
    // The producer failed after the status was sent: all that is left is to cut the response.
    log().error({ err: error }, "Streamed response failed");
    res.destroy();
  } finally {
    res.off("close", onClose);
  }
}

/** Registers the hot routes (instrumentation.ts). */
export function registerHotRoutes(routes: readonly THotRoute[]): void {
  const exact = new Map<string, THotRouteServer>();
  const patterns: Array<{ method: string; path: RegExp; serve: (params: Record<string, string>, path: string) => THotRouteServer }> = [];
  for (const route of routes) {
    const serve: (params: Record<string, string>, path: string) => THotRouteServer =
      "endpoint" in route
        ? (params, path) => Object.assign((rq: IncomingMessage, rs: ServerResponse) => servePlain(route.endpoint, params, path, rq, rs), { sendsWhole: true as const })
        : (params) => (rq, rs) => serveWith(route.handler, params, rq, rs);
    if (typeof route.path === "string") exact.set(`${route.method} ${route.path}`, serve({}, route.path));
    else patterns.push({ method: route.method, path: route.path, serve });
  }
  (globalThis as TGlobalWithRoutes)[REGISTRY_KEY] = {
    match(req) {
      const path = pathOf(req.url ?? "/");
      const method = req.method ?? "GET";
      const serve = exact.get(`${method} ${path}`);
      if (serve) return serve;
      for (const route of patterns) {
        if (route.method !== method) continue;
        const found = route.path.exec(path);
        if (!found) continue;
        // Next decodes each dynamic segment; server.mjs's guard already refused what cannot be decoded.
        const params = Object.fromEntries(Object.entries(found.groups ?? {}).map(([k, v]) => [k, decodeURIComponent(v)]));
        return route.serve(params, path);
      }
      return null;
    },
  };
}

/**
 * A page server.mjs may send as it was rendered before (lib/server/http/kept-pages.mjs,
 * docs/decisions/044-kept-pages.md): `key` reads, for this request, everything the page's render
 * depends on besides its URL, or answers null for a request it must render (a signed-in visitor).
 */
export interface TKeptPageRoute {
  path: string;
  key(request: Pick<TPlainRequest, "header">, query: URLSearchParams): Promise<string | null>;
}

export interface TKeptPageRoutes {
  /** The key of this request's page (null: render it), or null when the page is not kept. */
  match(req: IncomingMessage): Promise<string | null> | null;
}

const KEPT_PAGES_KEY = Symbol.for("hub.keptPages");
type TGlobalWithKeptPages = typeof globalThis & { [KEPT_PAGES_KEY]?: TKeptPageRoutes };

/** Requests of Next's client router (a page's RSC payload, a prefetch): never a kept page's HTML. */
const ROUTER_HEADERS = ["rsc", "next-router-state-tree", "next-router-prefetch", "next-router-segment-prefetch", "next-action"];

/** Registers the kept pages (instrumentation.ts): GETs of their exact path. */
export function registerKeptPages(pages: readonly TKeptPageRoute[]): void {
  const byPath = new Map(pages.map((page) => [page.path, page]));
  (globalThis as TGlobalWithKeptPages)[KEPT_PAGES_KEY] = {
    match(req) {
      if (req.method !== "GET") return null;
      const url = req.url ?? "/";
      const page = byPath.get(pathOf(url));
      if (!page) return null;
      const query = new URLSearchParams(searchOf(url));
      if (query.has("_rsc") || ROUTER_HEADERS.some((name) => req.headers[name] !== undefined)) return null;
      return page.key({ header: headerOf(req) }, query);
    },
  };
}

const SHUTDOWN_KEY = Symbol.for("hub.shutdownTasks");
type TGlobalWithTasks = typeof globalThis & { [SHUTDOWN_KEY]?: Array<() => Promise<void>> };

/** Work server.mjs awaits after the last request, before it exits (the access log's last batch). */
export function registerShutdownTask(task: () => Promise<void>): void {
  const g = globalThis as TGlobalWithTasks;
  (g[SHUTDOWN_KEY] ??= []).push(task);
}

/** What instrumentation.ts registered, or null (Next's dev server, tests). */
export function hotRoutes(): THotRoutes | null {
  return (globalThis as TGlobalWithRoutes)[REGISTRY_KEY] ?? null;
}
