// One error type for the whole app and one table from code to HTTP status. Pure: the layers
// below lib/server throw it too. Turning any error into a response is lib/server/http/error-response.ts.
import type { ZodError } from "zod";

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
