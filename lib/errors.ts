// One error type for the whole app, one table from code to HTTP status, one serialiser that never
// leaks a stack trace or an internal message.
import { NextResponse } from "next/server";
import { ZodError } from "zod";
import { randomUUID } from "node:crypto";
import { currentRequestId, log } from "@/lib/server/log.mjs";
import { isDatabaseUnavailable, reportDatabaseUnavailable } from "@/lib/server/db/unavailable";

const STATUS = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  internal: 500,
  unavailable: 503,
} as const;

/** Seconds a client is asked to wait after a 503 (a database restart takes about that long). */
export const RETRY_AFTER_SECONDS = 5;

export type AppErrorCode = keyof typeof STATUS;

export class AppError extends Error {
  readonly code: AppErrorCode;
  /** Field name → message, for forms and for 400s that name the parameter. */
  readonly fields?: Record<string, string>;

  constructor(code: AppErrorCode, message: string, fields?: Record<string, string>) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.fields = fields;
  }

  get status(): number {
    return STATUS[this.code];
  }
}

/** Turns a zod failure into a 400 naming each offending field. */
export function fromZodError(error: ZodError, prefix = "Parâmetro inválido"): AppError {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.join(".") || "_";
    fields[key] ??= issue.message;
  }
  const names = Object.keys(fields).filter((k) => k !== "_");
  const message = names.length ? `${prefix}: ${names.join(", ")}` : prefix;
  return new AppError("bad_request", message, fields);
}

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
 * JSON error response with `message` (and `fields` for 400s). An unknown error becomes a 500 whose
 * body is exactly `{ message, requestId }`; the error itself, with its stack, goes to the server's
 * log once, on a line carrying the same request id, and never into the response.
 */
export function toResponse(error: unknown, init?: { headers?: HeadersInit }): NextResponse {
  const appError = toAppError(error);
  if (appError.code === "internal") {
    // Outside server.mjs (next dev, a script) there is no request context: make an id anyway so
    // the answer and the log line still match.
    const requestId = currentRequestId() ?? randomUUID();
    log().error({ err: error, ...(currentRequestId() ? {} : { requestId }) }, "Unhandled error");
    return NextResponse.json({ message: appError.message, requestId }, { status: appError.status, headers: init?.headers });
  }
  const body: { message: string; fields?: Record<string, string> } = { message: appError.message };
  if (appError.fields && appError.code === "bad_request") body.fields = appError.fields;
  const headers = new Headers(init?.headers);
  if (appError.code === "unavailable") headers.set("Retry-After", String(RETRY_AFTER_SECONDS));
  return NextResponse.json(body, { status: appError.status, headers });
}
