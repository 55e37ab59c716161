import { AppError } from "@/lib/errors";
import { log } from "@/lib/server/log.mjs";
import type { TFormState } from "@/lib/validations/developer";

/**
 * A service failure as form state: field messages from a 400/409, the message of other expected
 * failures (404, 403, 429), and a generic message for anything unexpected (logged, never shown).
 */
export function toFormError(error: unknown, values: Record<string, string> = {}): Extract<TFormState<never>, { status: "error" }> {
  if (error instanceof AppError && error.code !== "internal") {
    return { status: "error", message: error.message, fieldErrors: error.fields ?? {}, values };
  }
  log().error({ err: error }, "Developer action failed");
  return { status: "error", message: "Não foi possível concluir. Tente novamente.", fieldErrors: {}, values };
}
