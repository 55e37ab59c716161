// @ts-check
// The hub's operational log: one JSON line per event on stdout (pino), each line about a request
// carrying that request's id. Plain JavaScript because server.mjs loads it with no build step;
// the routes (bundled by Next, which keeps `pino` external) load the same file. Both must share
// ONE logger and ONE AsyncLocalStorage, so both live on globalThis under a registered symbol.
// What is logged and what never is: docs/security.md ("Logging"); decision: docs/decisions/009.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import { inspect } from "node:util";
import pino from "pino";
import { pathOf } from "./http/request-url.mjs";

/** @typedef {{ requestId: string }} RequestContext */
/** @typedef {{ logger: import("pino").Logger, context: AsyncLocalStorage<RequestContext>, requestLine?: import("pino").Logger }} LogState */

/**
 * Header names that carry credentials. The hub never passes headers to the logger; the redaction
 * is the second line of defence should a future line log a request or its headers by mistake.
 */
const SECRET_HEADERS = ["authorization", "cookie", "set-cookie", "x-api-key", "proxy-authorization"];
export const REDACT_PATHS = Object.freeze([
  ...SECRET_HEADERS.flatMap((h) => [`req.headers["${h}"]`, `headers["${h}"]`, `res.headers["${h}"]`]),
  "password",
  "*.password",
  "client_secret",
  "*.client_secret",
  "token",
  "*.token",
  "body",
  "*.body",
]);

const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

// Next replaces the global Date with a wrapper that notes every reading of the clock as IO for its
// prerenders (next/dist/server/node-environment-extensions/date.js), which costs each `new Date()`
// and `Date.now()` a few microseconds. server.mjs loads this module before Next: the log's clock
// is the original.
const wallClock = Date.now;
const OriginalDate = Date;
let timeSecond = -1;
let timePrefix = "";

/**
 * pino's isoTime (`,"time":"2026-11-29T15:16:10.123Z"`), with the date and time up to the second
 * formatted once a second instead of on every line.
 * @param {number} [now] milliseconds since the epoch (tests)
 */
export function isoTimestamp(now = wallClock()) {
  const second = Math.floor(now / 1000);
  if (second !== timeSecond) {
    timeSecond = second;
    timePrefix = new OriginalDate(second * 1000).toISOString().slice(0, 20);
  }
  const ms = now - second * 1000;
  return `,"time":"${timePrefix}${ms < 10 ? "00" : ms < 100 ? "0" : ""}${ms}Z"`;
}

/**
 * The level from LOG_LEVEL (default `info`; an unknown value falls back to `info`).
 * @param {Record<string, string | undefined>} [env]
 */
export function logLevel(env = process.env) {
  const level = (env.LOG_LEVEL ?? "").toLowerCase();
  return LEVELS.includes(level) ? level : "info";
}

/**
 * A logger writing to `destination` (stdout by default). Every line gets the current request's id
 * (`requestId`) when there is one.
 * @param {AsyncLocalStorage<RequestContext>} context
 * @param {import("pino").DestinationStream} [destination]
 * @param {string} [level]
 * @param {{ redact?: boolean }} [options] redact: false for lines whose fields cannot carry a secret
 */
export function createLogger(context, destination, level = logLevel(), { redact = true } = {}) {
  return pino(
    {
      level,
      base: { pid: process.pid },
      timestamp: isoTimestamp,
      ...(redact ? { redact: { paths: [...REDACT_PATHS], remove: true } } : {}),
      mixin: () => {
        const store = context.getStore();
        return store ? { requestId: store.requestId } : {};
      },
    },
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

const STATE_KEY = Symbol.for("hub.log");

/** @returns {LogState} */
function state() {
  const holder = /** @type {Record<symbol, LogState | undefined>} */ (/** @type {unknown} */ (globalThis));
  let current = holder[STATE_KEY];
  if (!current) {
    const context = new AsyncLocalStorage();
    current = { context, logger: createLogger(context) };
    holder[STATE_KEY] = current;
  }
  return current;
}

/** How long a request line may wait in its buffer before it is written. */
export const REQUEST_LINE_FLUSH_MS = 200;

/**
 * The logger of the request line (server.mjs: method, path with only the routes' static segments,
 * status, duration), on stdout like the process's logger, with two differences:
 * - no redaction, which costs 6 µs a line and has nothing to find in those four fields, none of
 *   which can carry a secret;
 * - its lines are gathered and written 4 KB at a time, or REQUEST_LINE_FLUSH_MS after the first,
 *   not with one write to stdout each (a system call per request). Whatever is gathered is
 *   written when the process exits; only a process killed outright (SIGKILL) loses it, at most
 *   4 KB of request lines. Each write carries whole lines, on the main thread as the process's
 *   logger writes: a request line may come a moment after a line written later, never inside one.
 * @returns {import("pino").Logger}
 */
export function requestLineLog() {
  const current = state();
  if (!current.requestLine) {
    const buffered = pino.destination({ dest: 1, sync: true, minLength: 4096, periodicFlush: REQUEST_LINE_FLUSH_MS });
    process.once("exit", () => buffered.flushSync());
    current.requestLine = createLogger(current.context, buffered, current.logger.level, { redact: false });
  }
  return current.requestLine;
}

/** The process's logger. */
export function log() {
  return state().logger;
}

/** The id of the request being handled, if any. */
export function currentRequestId() {
  return state().context.getStore()?.requestId;
}

/**
 * Runs `fn` as part of the request `requestId`: every line logged inside it, however deep, carries the id.
 * @template T
 * @param {string} requestId
 * @param {() => T} fn
 * @returns {T}
 */
export function runWithRequestId(requestId, fn) {
  return state().context.run({ requestId }, fn);
}

const INCOMING_ID = /^[A-Za-z0-9._-]{1,64}$/;

/**
 * The request id to use: a proxy's `X-Request-Id` when it is sane (1–64 characters of
 * [A-Za-z0-9._-], so it cannot forge log lines or smuggle data), else a new UUID.
 * @param {string | string[] | undefined} incoming
 */
export function requestIdFrom(incoming) {
  return typeof incoming === "string" && INCOMING_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * Turns console.error/console.warn arguments into one log line: the first Error goes in `err`
 * (with its stack), the rest is formatted shallowly on one line and capped, so that an object a
 * library prints (a connection, a request) is never dumped whole.
 * @param {unknown[]} args
 * @returns {[{ err?: unknown }, string]}
 */
export function consoleArgsToLine(args) {
  const err = args.find((a) => a instanceof Error);
  const text = args
    .filter((a) => a !== err)
    .map((a) => (typeof a === "string" ? a : inspect(a, { depth: 0, breakLength: Infinity, maxArrayLength: 5, maxStringLength: 200 })))
    .join(" ")
    .slice(0, 1000);
  return [err ? { err } : {}, text || (err instanceof Error ? err.message : "")];
}

/**
 * The static path segments of the app's routes and pages, from Next's build manifest
 * (`app-path-routes-manifest.json`: "/manager/v1/data/[orgId]" → manager, v1, data).
 * @param {Record<string, string>} manifest
 */
export function staticSegments(manifest) {
  const words = new Set();
  for (const route of Object.values(manifest)) {
    for (const segment of route.split("/")) if (segment && !segment.startsWith("[") && !segment.startsWith("(")) words.add(segment);
  }
  return words;
}

/**
 * The path to log for a request URL: no query string (it carries codes, tokens, e-mail addresses)
 * and every segment that is not a static segment of a route replaced by `:` — dynamic values and
 * whatever someone typed into a URL (a CPF, a name) stay out of the log.
 * @param {string} url
 * @param {Set<string>} known
 */
export function pathForLog(url, known) {
  const path = pathOf(url);
  let paths = loggedPaths.get(known);
  if (!paths) loggedPaths.set(known, (paths = new Map()));
  let logged = paths.get(path);
  if (logged === undefined) {
    logged = path
      .split("/")
      .map((segment) => (segment === "" || known.has(segment) ? segment : ":"))
      .join("/")
      .slice(0, 200);
    // Remembered for paths of a sane length, at most LOGGED_PATHS_MAX of them (then forgotten at once).
    if (path.length <= 256) {
      if (paths.size >= LOGGED_PATHS_MAX) paths.clear();
      paths.set(path, logged);
    }
  }
  return logged;
}
/** @type {WeakMap<Set<string>, Map<string, string>>} each routes' segments' paths, as logged */
const loggedPaths = new WeakMap();
const LOGGED_PATHS_MAX = 1024;
