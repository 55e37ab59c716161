// The one serialiser of errors into responses: it never leaks a stack trace or an internal
// message, and logs an unknown error once, on the request's id.
import { randomUUID } from "node:crypto";
import { NextResponse } from "next/server";
import { ZodError } from "zod";
import { AppError, fromZodError, RETRY_AFTER_SECONDS } from "@/lib/errors";
import { isDatabaseUnavailable, reportDatabaseUnavailable } from "@/lib/server/db/unavailable";
import { currentRequestId, log } from "@/lib/server/log.mjs";

export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ZodError) return fromZodError(error);
  if (isDatabaseUnavailable(error)) {
    reportDatabaseUnavailable(error);
    return new AppError("unavailable", "O banco de dados do Hub está indisponível no momento. Tente novamente em alguns segundos.");
  }
  return new AppError("internal", "Erro interno. Tente novamente.");
}

/**
 * The AppError an answer shows for `error`. An unknown error is logged here, once, with its stack,
 * on a line carrying `requestId`, which the answer shows instead (only then is it set).
 */
export function reportError(error: unknown): { appError: AppError; requestId?: string } {
  const appError = toAppError(error);
  if (appError.code !== "internal") return { appError };
  // Outside server.mjs (next dev, a script) there is no request context: make an id anyway so
  // the answer and the log line still match.
  const requestId = currentRequestId() ?? randomUUID();
  log().error({ err: error, ...(currentRequestId() ? {} : { requestId }) }, "Unhandled error");
  return { appError, requestId };
}

/**
 * JSON error response with `message` (and `fields` for 400s). An unknown error becomes a 500 whose
 * body is exactly `{ message, requestId }`; the error itself, with its stack, goes to the server's
 * log once, on a line carrying the same request id, and never into the response.
 */
export function toResponse(error: unknown, init?: { headers?: HeadersInit }): NextResponse {
  const { appError, requestId } = reportError(error);
  if (requestId) return NextResponse.json({ message: appError.message, requestId }, { status: appError.status, headers: init?.headers });
  const body: { message: string; fields?: Record<string, string> } = { message: appError.message };
  if (appError.fields && appError.code === "bad_request") body.fields = appError.fields;
  const headers = new Headers(init?.headers);
  if (appError.code === "unavailable") headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  return NextResponse.json(body, { status: appError.status, headers });
}
