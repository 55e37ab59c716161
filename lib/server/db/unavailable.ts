/**
 * Whether an error means "the database cannot be reached or is not answering right now" — a
 * restart, a network cut, a server that accepts connections and then hangs — as opposed to a
 * statement the database refused. Those become 503 with Retry-After (lib/errors.ts), never 500:
 * the request was fine and will work again once the database is back, by itself (the pool opens
 * fresh connections). docs/decisions/010-database-outages.md.
 *
 * Every shape below was reproduced against PostgreSQL through `pg` and `@prisma/adapter-pg`
 * (unavailable.test.ts does it again): pg's socket errors and SQLSTATEs, pg's plain errors with
 * no code, and Prisma's wrappers — a PrismaClientKnownRequestError with a P1xxx code or with
 * `meta.driverAdapterError.cause`, or a bare DriverAdapterError thrown from `$transaction`.
 * Pure: no driver import, so it loads anywhere lib/errors.ts does.
 */

/** Node socket errors on the way to the database (refused, reset, timed out, host not found). */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN"]);

/**
 * SQLSTATEs of a server going away or not ready: class 08 (connection exception), 57P01
 * admin_shutdown (fast shutdown or restart), 57P02 crash_shutdown, 57P03 cannot_connect_now
 * ("the database system is starting up"), 53300 too_many_connections, and 57014 query_canceled,
 * which the hub only meets from its own statement_timeout (lib/db.ts).
 */
const SQLSTATES = new Set(["08000", "08001", "08003", "08004", "08006", "57P01", "57P02", "57P03", "53300", "57014"]);

/**
 * pg's errors without a code (pg 8.x, lib/client.js and pg-pool): a socket closed under a query
 * or a connection attempt, the pool's connect timeout, the client's query_timeout.
 */
const PG_MESSAGES = new Set([
  "Connection terminated unexpectedly",
  "Connection terminated",
  "Connection terminated due to connection timeout",
  "timeout exceeded when trying to connect",
  "Query read timeout",
  "Client has encountered a connection error and is not queryable",
  "Client was closed and is not queryable",
]);

/** Prisma's codes for the same situations: P1001 can't reach, P1002/P1008 timed out, P1017 closed, P2024 pool timeout. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024"]);

/** @prisma/adapter-pg's DriverAdapterError kinds (convertDriverError) for a lost or refused connection. */
const ADAPTER_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);

type TErrorLike = { name?: unknown; code?: unknown; message?: unknown; kind?: unknown; originalCode?: unknown; cause?: unknown; meta?: unknown };

function matches(value: TErrorLike): boolean {
  if (typeof value.code === "string") {
    if (SOCKET_CODES.has(value.code) || SQLSTATES.has(value.code)) return true;
    if (value.name === "PrismaClientKnownRequestError" && PRISMA_CODES.has(value.code)) return true;
  }
  if (typeof value.originalCode === "string" && SQLSTATES.has(value.originalCode)) return true;
  if (typeof value.kind === "string" && ADAPTER_KINDS.has(value.kind)) return true;
  return typeof value.message === "string" && value.code === undefined && PG_MESSAGES.has(value.message);
}

/** True when `error`, or what it wraps (`cause`, Prisma's `meta.driverAdapterError`), is a database outage. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  const queue: unknown[] = [error];
  // A few levels are enough (Prisma error → DriverAdapterError → its cause); the bound keeps a
  // cyclic `cause` from looping.
  while (queue.length && seen.size < 8) {
    const value = queue.shift();
    if (!value || typeof value !== "object" || seen.has(value)) continue;
    seen.add(value);
    const e = value as TErrorLike;
    if (matches(e)) return true;
    queue.push(e.cause);
    if (e.meta && typeof e.meta === "object") queue.push((e.meta as { driverAdapterError?: unknown }).driverAdapterError);
  }
  return false;
}

/**
 * True when PostgreSQL cancelled the statement (57014): the pool's statement_timeout, or a
 * shorter budget a read set for one statement (read-rostering.ts's count). isDatabaseUnavailable
 * counts it too, as a database that stopped answering in time.
 */
export function isStatementCancelled(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as TErrorLike).code === "57014";
}

/** A short, secret-free description for a log line: a code or pg's fixed message, never the error object. */
export function describeDatabaseError(error: unknown): string {
  const e = (error ?? {}) as TErrorLike;
  const adapterCause = (e.meta as { driverAdapterError?: { cause?: TErrorLike } } | undefined)?.driverAdapterError?.cause;
  const code = [e.code, adapterCause?.originalCode, adapterCause?.kind, (e.cause as TErrorLike | undefined)?.code].find((c) => typeof c === "string");
  if (typeof code === "string") return code;
  if (typeof e.message === "string" && PG_MESSAGES.has(e.message)) return e.message;
  return typeof e.name === "string" ? e.name : typeof error;
}

/** At most one log line per this many ms while the database is down (a restart under load fails thousands of requests). */
const REPORT_EVERY_MS = 5_000;
let lastReport = 0;
let unreported = 0;

/**
 * Logs that a request failed because the database is unavailable: one line, with the error's
 * code and how many more failed since the previous line, at most every 5 s.
 */
export function reportDatabaseUnavailable(error: unknown, now = Date.now()): void {
  if (now - lastReport < REPORT_EVERY_MS) {
    unreported += 1;
    return;
  }
  const more = unreported ? `; ${unreported} more since the last report` : "";
  console.warn(`Database unavailable (${describeDatabaseError(error)}): answering 503${more}`);
  lastReport = now;
  unreported = 0;
}
