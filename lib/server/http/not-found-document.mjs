// @ts-check
// A page's notFound() answered with the not-found page itself, rendered on the server.
//
// When notFound() is thrown while Next renders a page's first HTML (in the page or a layout,
// outside any Suspense boundary), Next 16 answers 404 with a bare error document,
// `<html id="__next_error__"><head>…</head><body></body></html>` (app-render's
// getErrorRSCPayload): React's server renderer runs no error boundaries, so not-found.tsx and
// the root layout around it (its `<html lang="pt-BR">`, header and footer) are drawn by the
// browser only, once the scripts have run. A URL that matches no route is different: Next renders
// its `/_not-found` route, the root layout with not-found.tsx in it, on the server. Decision:
// docs/decisions/036-server-rendered-not-found.md.
//
// server.mjs watches a page's GET through replaceErrorDocument: if Next starts that 404 error
// document, nothing of it is sent, and Next's handler renders `/_not-found` on the same response.

/** How Next's error document opens (after `<!DOCTYPE html>`). */
const ERROR_DOCUMENT_MARK = '<html id="__next_error__"';
/** The route Next renders for a URL that matches no route: app/not-found.tsx in the root layout. */
export const NOT_FOUND_ROUTE = "/_not-found";

/**
 * Whether this request is one whose error document may be replaced: a GET for a page's HTML. Not
 * an RSC request (a client navigation or prefetch: Flight data, whose notFound() the client's
 * boundaries draw), and not a POST: the second render must not run the request again.
 * @param {import("node:http").IncomingMessage} req
 */
export function mayReplaceErrorDocument(req) {
  return req.method === "GET" && req.headers.rsc === undefined && req.headers["next-router-prefetch"] === undefined;
}

/**
 * Whether the first chunk of a 404 answer is Next's error document.
 * @param {unknown} chunk
 */
export function isErrorDocument(chunk) {
  if (typeof chunk === "string") return chunk.slice(0, 512).includes(ERROR_DOCUMENT_MARK);
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, Math.min(chunk.byteLength, 512)).toString("latin1").includes(ERROR_DOCUMENT_MARK);
  return false;
}

/** @typedef {"writeHead" | "flushHeaders" | "write" | "end" | "flush"} TWatched */
const WATCHED = /** @type {const} */ (["writeHead", "flushHeaders", "write", "end", "flush"]);

/**
 * Watches what Next writes to `res` until its first chunk. An answer that is not a 404, or a 404
 * that is not the error document, goes out unchanged (the watch steps aside at the first write).
 * A 404 error document is held back whole: its headers are never sent, its chunks are dropped,
 * and when Next ends it, the headers Next set are removed and `renderNotFound` answers on `res`.
 * Call after any middleware that wraps `res` (compression), so Next's writes reach this first.
 * @param {import("node:http").ServerResponse} res
 * @param {() => void} renderNotFound
 */
export function replaceErrorDocument(res, renderNotFound) {
  const target = /** @type {Record<TWatched, unknown>} */ (/** @type {unknown} */ (res));
  /** The response's own methods before the watch (compression's wrappers), or undefined: the prototype's. */
  const own = new Map(WATCHED.map((name) => [name, Object.getOwnPropertyDescriptor(res, name)]));
  const headersBefore = new Set(res.getHeaderNames());
  /** @type {"watching" | "dropping" | "done"} */
  let state = "watching";
  /** flushHeaders()/writeHead() of a 404, held until the first chunk shows what the 404 is. */
  /** @type {(() => void) | null} */
  let heldHead = null;

  const restore = () => {
    for (const [name, descriptor] of own) {
      if (descriptor) Object.defineProperty(res, name, descriptor);
      else delete target[name];
    }
  };
  /** Not the error document: the watch steps aside and what it held goes out. */
  const stepAside = () => {
    state = "done";
    restore();
    const head = heldHead;
    heldHead = null;
    head?.();
  };
  /** @param {unknown[]} args */
  const callbackOf = (args) => {
    const last = args[args.length - 1];
    return typeof last === "function" ? /** @type {(error?: Error | null) => void} */ (last) : null;
  };
  const renderInstead = () => {
    state = "done";
    restore();
    if (res.destroyed) return;
    for (const name of res.getHeaderNames()) if (!headersBefore.has(name)) res.removeHeader(name);
    res.statusCode = 200;
    // Next's handler adds its 'close' listeners to the response a second time.
    res.setMaxListeners(res.getMaxListeners() * 2);
    renderNotFound();
  };

  target.writeHead = /** @param {unknown[]} args */ (...args) => {
    if (state === "dropping") return res;
    if (args[0] !== 404) {
      stepAside();
      return res.writeHead(.../** @type {[number]} */ (args));
    }
    heldHead = () => res.writeHead(.../** @type {[number]} */ (args));
    return res;
  };
  target.flushHeaders = () => {
    if (state === "dropping") return;
    if (res.statusCode !== 404) {
      stepAside();
      res.flushHeaders();
      return;
    }
    heldHead = () => res.flushHeaders();
  };
  target.flush = () => {};
  target.write = /** @param {unknown[]} args */ (...args) => {
    if (state === "watching") {
      if (res.statusCode === 404 && isErrorDocument(args[0])) state = "dropping";
      else {
        stepAside();
        return /** @type {(...a: unknown[]) => boolean} */ (res.write)(...args);
      }
    }
    callbackOf(args)?.();
    return true;
  };
  target.end = /** @param {unknown[]} args */ (...args) => {
    if (state === "watching") {
      const chunk = typeof args[0] === "function" ? undefined : args[0];
      if (res.statusCode === 404 && chunk !== undefined && chunk !== null && isErrorDocument(chunk)) state = "dropping";
      else {
        stepAside();
        return /** @type {(...a: unknown[]) => import("node:http").ServerResponse} */ (res.end)(...args);
      }
    }
    callbackOf(args)?.();
    renderInstead();
    return res;
  };
}
