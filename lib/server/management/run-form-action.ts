import { unstable_rethrow } from "next/navigation";
import { ZodError } from "zod";
import { AppError, toAppError } from "@/lib/errors";
import { log } from "@/lib/server/log.mjs";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { resolveManagerScope, type TManagerScope } from "./resolve-manager-scope";

/** What a manager-area form action answers; the form shows it next to the fields. */
export type TFormState =
  | { status: "idle" }
  | { status: "ok"; message: string; at: number }
  | { status: "error"; message: string; fields: Record<string, string>; values: Record<string, string>; at: number };

// Never echoed back into the page.
const SECRET_FIELDS = new Set(["password"]);

/**
 * The frame of every server action of /gestao: re-reads the signed-in manager's reach (a server
 * action is a public POST endpoint: nothing from the page is trusted), runs the action, and turns
 * any failure into a form state — a validation error per field, a readable message otherwise,
 * never a 5xx. Redirects and notFound() from the action pass through.
 */
export async function runFormAction(form: FormData, action: (scope: TManagerScope) => Promise<string>): Promise<TFormState> {
  const values: Record<string, string> = {};
  for (const [key, value] of form.entries()) if (typeof value === "string" && !SECRET_FIELDS.has(key) && !key.startsWith("$ACTION")) values[key] = value;
  try {
    const user = await getCurrentUser();
    if (!user) throw new AppError("unauthorized", "Sua sessão expirou. Entre novamente.");
    if (!user.profile) throw new AppError("forbidden", "Escolha um perfil de gestor para continuar.");
    const scope = await resolveManagerScope({ personId: user.personId, profileId: user.profile.id });
    return { status: "ok", message: await action(scope), at: Date.now() };
  } catch (error) {
    unstable_rethrow(error);
    const fields: Record<string, string> = {};
    if (error instanceof ZodError) {
      // Form fields carry the last segment of the schema path ("input.name" → "name").
      for (const issue of error.issues) fields[String(issue.path.at(-1) ?? "_")] ??= issue.message;
    } else if (error instanceof AppError && error.fields) {
      Object.assign(fields, error.fields);
    }
    const appError = toAppError(error);
    if (appError.code === "internal") log().error({ err: error }, "Manager action failed");
    const message = error instanceof ZodError ? "Corrija os campos indicados." : appError.message;
    return { status: "error", message, fields, values, at: Date.now() };
  }
}
