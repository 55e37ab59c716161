// The OAuth endpoints' answer to a failure that is not the caller's (the authorization screen,
// the token exchange, user info, the JWKS).
import { RETRY_AFTER_SECONDS } from "@/lib/errors";
import { toAppError } from "@/lib/server/http/error-response";
import { toWebResponse, type TPlainResponse } from "@/lib/server/http/plain-endpoint";
import { log } from "@/lib/server/log.mjs";
import { NO_STORE } from "./no-store";

/**
 * For failures that are not the caller's: an OAuth-shaped answer that leaks nothing. A database
 * outage is a 503 `temporarily_unavailable` with Retry-After (RFC 6749 §4.1.2.1's code for an
 * overloaded or down server; the request can be repeated as is), anything else a 500 logged once.
 */
export function serverErrorResult(error: unknown, headers: Record<string, string> = {}): TPlainResponse {
  const appError = toAppError(error);
  if (appError.code === "unavailable") {
    return {
      status: 503,
      headers: { ...NO_STORE, ...headers, "Retry-After": String(RETRY_AFTER_SECONDS) },
      json: { error: "temporarily_unavailable", error_description: "The database is unavailable. Try again in a few seconds." },
    };
  }
  log().error({ err: error }, "OAuth endpoint failed");
  return { status: 500, headers: { ...NO_STORE, ...headers }, json: { error: "server_error", error_description: "Internal error. Try again later." } };
}

/** serverErrorResult as a Response. */
export function serverErrorResponse(error: unknown, headers: Record<string, string> = {}): Response {
  return toWebResponse(serverErrorResult(error, headers));
}
