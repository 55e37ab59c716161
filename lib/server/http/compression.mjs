// @ts-check
// Response compression for server.mjs (plain JavaScript: node runs it with no build step).
// Next.js compresses with gzip level 6 and has no setting for it, and a route cannot compress
// its own body (Next drops a route's Content-Encoding), so the hub turns Next's off
// (`compress: false`) and compresses here. Decision: docs/decisions/007-compression-in-a-custom-server.md.
import compressible from "compressible";
import compression from "compression";
import Negotiator from "negotiator";
import vary from "vary";
import { brotliCompressSync, constants, deflateSync, gzipSync } from "node:zlib";
import { bodyChunk } from "./body-chunk.mjs";

/**
 * Measured on a 360 KB Data API page: gzip level 6 (Next's) costs 4–5.5 ms of stream
 * compression, gzip level 1 about 2.4 ms, brotli quality 4 about 2.8 ms with a smaller body than
 * either. The package prefers br when the client accepts it; gzip/deflate are for the rest.
 * 128 KiB chunks (zlib's default is 16 KiB) mean fewer thread-pool round trips for a big page.
 * The threshold stays the package's: below 1 KB the headers outweigh the saving.
 */
export const COMPRESSION_POLICY = Object.freeze({
  brotliQuality: 4,
  zlibLevel: 1,
  chunkSize: 128 * 1024,
});

/** @typedef {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => void} Compress */

/**
 * False when `HUB_COMPRESSION=0`: a deployment behind a reverse proxy that compresses anyway
 * should not pay for it twice.
 * @param {Record<string, string | undefined>} [env]
 */
export function compressionEnabled(env = process.env) {
  return env.HUB_COMPRESSION !== "0";
}

/**
 * A middleware that compresses what the next handler writes to `res`. Call it before the
 * handler, on the same `res`: it wraps `res.write`/`res.end` and adds `res.flush()`, which Next
 * calls after each streamed chunk. compression@1.8.2 also honours `Cache-Control: no-transform`
 * and HEAD, sets `Vary: Accept-Encoding`, and destroys its zlib stream when the response closes
 * early (its `onResponseClose` listener), so the hub needs no copy of Next's
 * releaseCompressionStream.
 * @returns {Compress}
 */
export function createCompression() {
  const { brotliQuality, zlibLevel, chunkSize } = COMPRESSION_POLICY;
  const middleware = compression({
    level: zlibLevel,
    chunkSize,
    brotli: { chunkSize, params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality } },
  });
  // The package works on plain node:http objects; its types are written for Express, whose
  // Request/Response extend IncomingMessage/ServerResponse with fields it never reads.
  const compress = /** @type {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse, next: () => void) => void} */ (
    /** @type {unknown} */ (middleware)
  );
  // `next` is called synchronously once `res` is wrapped; the caller runs its handler after.
  return (req, res) => compress(req, res, () => {});
}

// compression@1.8.2's choice among the encodings the client accepts (its SUPPORTED_ENCODING and
// PREFERRED_ENCODING, with the same `negotiator`): br first, then gzip.
const ENCODINGS = ["br", "gzip", "deflate", "identity"];
const PREFERRED = ["br", "gzip"];
/** The middleware's threshold (its default): below 1 KB the headers outweigh the saving. */
const THRESHOLD = 1024;
const NO_TRANSFORM = /(?:^|,)\s*?no-transform\s*?(?:,|$)/i;

/**
 * What the middleware does with a complete answer of `length` bytes whose headers are set on
 * `res`, for an answer sent whole (a plain endpoint's, a kept page's) without the middleware's
 * stream: it adds `Vary: Accept-Encoding` where the middleware would, and names the encoding to
 * compress with (compressAhead), or "identity" to send the bytes as they are. Its checks, in its
 * order: a compressible Content-Type, no `no-transform`, the threshold, not already encoded, not
 * HEAD, then the client's Accept-Encoding.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {number} length
 * @returns {string}
 */
export function encodingFor(req, res, length) {
  const type = res.getHeader("Content-Type");
  if (type === undefined || !compressible(String(type))) return "identity";
  if (NO_TRANSFORM.test(String(res.getHeader("Cache-Control") ?? ""))) return "identity";
  vary(res, "Accept-Encoding");
  if (length < THRESHOLD || (res.getHeader("Content-Encoding") ?? "identity") !== "identity" || req.method === "HEAD") return "identity";
  // negotiator 0.6.4 takes the preferred order as a second argument; @types/negotiator omits it.
  const encoding = /** @type {(available: string[], preferred: string[]) => string | undefined} */ (Negotiator.prototype.encoding);
  return encoding.call(new Negotiator(req), ENCODINGS, PREFERRED) ?? "identity";
}

/**
 * `body` compressed with the middleware's settings for `encoding` (br, gzip or deflate), in one
 * call. Sent with `Content-Encoding`, the middleware (when it wraps the response) passes it on
 * untouched ("already encoded").
 * @param {Buffer} body
 * @param {string} encoding
 * @returns {Buffer}
 */
export function compressAhead(body, encoding) {
  const { brotliQuality, zlibLevel } = COMPRESSION_POLICY;
  if (encoding === "br") return brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: brotliQuality, [constants.BROTLI_PARAM_SIZE_HINT]: body.byteLength } });
  return encoding === "gzip" ? gzipSync(body, { level: zlibLevel }) : deflateSync(body, { level: zlibLevel });
}

/**
 * A complete answer as it is to be sent to `req`'s client: compressed in one call as the
 * middleware would (encodingFor, compressAhead), with its `Content-Encoding` set, or `body` as it
 * is. `made` holds bodies already compressed, by encoding (a kept page's): consulted and filled.
 * @template {string | Buffer} T
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 * @param {T} body
 * @param {Map<string, Buffer>} [made]
 * @returns {T | Buffer}
 */
export function encodeWhole(req, res, body, made) {
  const encoding = encodingFor(req, res, typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
  if (encoding === "identity") return body;
  let encoded = made?.get(encoding);
  if (!encoded) {
    encoded = compressAhead(typeof body === "string" ? Buffer.from(body) : body, encoding);
    made?.set(encoding, encoded);
  }
  res.setHeader("Content-Encoding", encoding);
  return encoded;
}

/** A page bigger than this is sent as it is, past this point, rather than held in memory whole. */
const MAX_WHOLE_BYTES = 2 * 1024 * 1024;

/**
 * Compression for a page of Next's: the hub's pages are rendered in one pass (no Suspense, no
 * loading.tsx: nothing is sent early for a part that comes later), yet Next writes them in many
 * small chunks and flushes the compression middleware's stream after each one, which costs a
 * thread-pool round trip and a brotli flush per chunk: 8 ms of a 17 KB gallery's 21 (a scratch
 * load, docs/performance.md). Here the page is held until Next ends it, then compressed in one
 * call with the middleware's encoding and settings (encodingFor, compressAhead), with its
 * Content-Length. Next's `flushHeaders()` waits for the body; a page over MAX_WHOLE_BYTES is sent
 * uncompressed from there on, as it comes.
 * @param {import("node:http").IncomingMessage} req
 * @param {import("node:http").ServerResponse} res
 */
export function compressWhole(req, res) {
  /** @type {Buffer[]} */
  const chunks = [];
  let size = 0;
  const { write, end, flushHeaders } = res;
  const restore = () => Object.assign(res, { write, end, flushHeaders });
  /** @param {unknown} chunk @param {unknown} encoding */
  const hold = (chunk, encoding) => {
    const buffer = bodyChunk(chunk, encoding);
    if (!buffer) return;
    chunks.push(buffer);
    size += buffer.byteLength;
  };
  /** Past the limit: what is held goes out as it is, and the rest as it comes. */
  const letGo = () => {
    restore();
    if (!res.headersSent) encodingFor(req, res, 0); // its Vary, and nothing compressed
    return res.write(Buffer.concat(chunks.splice(0)));
  };
  // write's and end's overloads cannot be forwarded with their own types: the wrappers take their
  // arguments as they come.
  res.flushHeaders = () => undefined;
  res.write = /** @type {typeof res.write} */ (/** @type {unknown} */ ((/** @type {unknown[]} */ ...args) => {
    hold(args[0], args[1]);
    const callback = args.find((a) => typeof a === "function");
    if (callback) process.nextTick(/** @type {() => void} */ (callback));
    return size > MAX_WHOLE_BYTES ? letGo() : true;
  }));
  res.end = /** @type {typeof res.end} */ (/** @type {unknown} */ ((/** @type {unknown[]} */ ...args) => {
    hold(args[0], args[1]);
    const callback = args.find((a) => typeof a === "function");
    restore();
    const whole = Buffer.concat(chunks);
    // Headers already written (an explicit writeHead) cannot say another encoding.
    const body = res.headersSent ? whole : encodeWhole(req, res, whole);
    if (!res.headersSent) res.setHeader("Content-Length", body.byteLength);
    return Reflect.apply(end, res, callback ? [body, callback] : [body]);
  }));
}
