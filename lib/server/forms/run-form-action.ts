import { unstable_rethrow } from "next/navigation";
import { ZodError } from "zod";
import { AppError } from "@/lib/errors";
import { toAppError } from "@/lib/server/http/error-response";
import { log } from "@/lib/server/log.mjs";
import type { TFormState } from "@/lib/validations/form";

// Never echoed back into the page.
const SECRET_FIELDS = new Set(["password", "sharedSecret", "clientSecret"]);

/** A success's message and result. */
export interface TFormDone<R> {
  message: string;
  result: R;
}

/** A success with a message only. */
export const done = (message: string): TFormDone<undefined> => ({ message, result: undefined });

/**
 * The frame of every server action: finds who acts (a server action is a public POST endpoint:
 * nothing from the page is trusted, so `actor` re-reads the session and throws when it is not
 * enough), runs the action, and turns any failure into form state — a message per field for a
 * ZodError or an AppError with fields, a readable message otherwise, never a 5xx. The typed text
 * values come back with an error, secrets excepted. Redirects and notFound() pass through.
 */
export async function runFormAction<TActor, R>(form: FormData, actor: () => Promise<TActor>, action: (actor: TActor) => Promise<TFormDone<R>>): Promise<TFormState<R>> {
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string" && !SECRET_FIELDS.has(key) && !key.startsWith("$ACTION")) values[key] = value;
  try {
    const { message, result } = await action(await actor());
    return { status: "success", message, result, at: Date.now() };
  } catch (error) {
    unstable_rethrow(error);
    const fieldErrors: Record<string, string> = {};
    if (error instanceof ZodError) {
      // Form fields carry the last segment of the schema path ("input.name" → "name").
      for (const issue of error.issues) fieldErrors[String(issue.path.at(-1) ?? "_")] ??= issue.message;
    } else if (error instanceof AppError && error.fields) {
      Object.assign(fieldErrors, error.fields);
    }
    const appError = toAppError(error);
    if (appError.code === "internal") log().error({ err: error }, "Form action failed");
    const message = error instanceof ZodError ? "Corrija os campos indicados." : appError.code === "internal" ? "Não foi possível concluir. Tente novamente." : appError.message;
    return { status: "error", message, fieldErrors, values, at: Date.now() };
  }
}
