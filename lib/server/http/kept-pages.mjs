// @ts-check
// Kept pages (docs/decisions/044-kept-pages.md): a page that everyone who is not signed in sees
// alike — the sign-in page at the bell — rendered by Next once per URL and per state of what it
// reads, then sent again as it is while that state is unchanged. server.mjs asks the page's key
// function (registered by instrumentation.ts beside the hot routes) for the key of each request:
// null sends the request to Next as before (a session cookie, a request of Next's router, a page
// not kept); a key reads the page's inputs in the same request (the sign-in page's providers), so a
// changed input is a new key and a fresh render, never an old page.

import { bodyChunk } from "./body-chunk.mjs";
import { encodeWhole } from "./compression.mjs";

/** Headers of a render that belong to one answer, not to the page: never kept. */
const ANSWER_HEADERS = new Set(["content-encoding", "content-length", "transfer-encoding", "date", "connection", "keep-alive", "x-request-id"]);

/**
 * @typedef {{ headers: Array<[string, number | string | string[]]>, body: Buffer, encoded: Map<string, Buffer> }} TKeptPage
 * @typedef {import("node:http").IncomingMessage} TRequest
 * @typedef {import("node:http").ServerResponse} TResponse
 * @typedef {{ send(req: TRequest, res: TResponse, url: string, key: string): boolean, keep(res: TResponse, url: string, key: string): void, size(): number }} TKeptPages
 */

/**
 * The pages kept by one process: at most `maxPages` (the oldest forgotten first: a URL is any
 * query the client chose), each at most `maxBytes`. Only a complete 200 without Set-Cookie is kept.
 * With `compressed` (the server compresses: compression.mjs), a page is also kept compressed in
 * each encoding a client asked for, the first time one did: the same bytes the middleware would
 * have made, without compressing the same page for every visitor.
 * @param {{ maxPages?: number, maxBytes?: number, compressed?: boolean }} [options]
 * @returns {TKeptPages}
 */
export function createKeptPages({ maxPages = 256, maxBytes = 256 * 1024, compressed = false } = {}) {
  /** @type {Map<string, TKeptPage>} */
  const pages = new Map();
  /** @param {string} url @param {string} key */
  const id = (url, key) => `${url}\n${key}`;
  return {
    /** Sends the page kept for `url` under `key`; false when there is none (then render it). */
    send(req, res, url, key) {
      const page = pages.get(id(url, key));
      if (!page) return false;
      res.statusCode = 200;
      for (const [name, value] of page.headers) res.setHeader(name, value);
      res.end(compressed ? encodeWhole(req, res, page.body, page.encoded) : page.body);
      return true;
    },
    /** Keeps what is written to `res` (after this call: Next's render) once it is completely sent. */
    keep(res, url, key) {
      /** @type {Buffer[]} */
      const chunks = [];
      let size = 0;
      let keepable = true;
      /** @param {unknown} chunk @param {unknown} encoding */
      const collect = (chunk, encoding) => {
        const buffer = keepable ? bodyChunk(chunk, encoding) : null;
        if (!buffer) return;
        size += buffer.byteLength;
        if (size > maxBytes) keepable = false;
        else chunks.push(buffer);
      };
      /** @type {Record<string, number | string | string[]>} */
      let headedWith = {};
      const { write, end, writeHead } = res;
      // write's and end's overloads cannot be forwarded with their own types: the wrappers take
      // their arguments as they come and hand them on unchanged.
      res.write = /** @type {typeof res.write} */ (/** @type {unknown} */ ((/** @type {unknown[]} */ ...args) => {
        collect(args[0], args[1]);
        return Reflect.apply(write, res, args);
      }));
      // Headers handed to writeHead without setHeader before it are sent but not stored on `res`.
      res.writeHead = /** @type {typeof res.writeHead} */ (/** @type {unknown} */ ((/** @type {unknown[]} */ ...args) => {
        const headers = typeof args[1] === "string" ? args[2] : args[1];
        if (Array.isArray(headers)) keepable = false;
        else if (headers && typeof headers === "object") headedWith = /** @type {Record<string, number | string | string[]>} */ (headers);
        return Reflect.apply(writeHead, res, args);
      }));
      res.end = /** @type {typeof res.end} */ (/** @type {unknown} */ ((/** @type {unknown[]} */ ...args) => {
        collect(args[0], args[1]);
        return Reflect.apply(end, res, args);
      }));
      res.once("finish", () => {
        if (!keepable || res.statusCode !== 200) return;
        const sent = { ...Object.fromEntries(Object.entries(headedWith).map(([name, value]) => [name.toLowerCase(), value])), ...res.getHeaders() };
        if (sent["set-cookie"] !== undefined) return;
        /** @type {Array<[string, number | string | string[]]>} */
        const headers = [];
        for (const [name, value] of Object.entries(sent)) if (value !== undefined && !ANSWER_HEADERS.has(name)) headers.push([name, value]);
        if (pages.size >= maxPages) pages.delete(/** @type {string} */ (pages.keys().next().value));
        const body = Buffer.concat(chunks);
        pages.set(id(url, key), { headers, body, encoded: new Map() });
      });
    },
    size: () => pages.size,
  };
}
