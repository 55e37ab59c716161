// Forms of server actions: the one answer every action gives, and FormData read through zod
// schemas with zod-form-data (lib/server/forms/run-form-action.ts runs the actions;
// docs/decisions/019-one-form-runner.md).
import { z } from "zod";
import { zfd } from "zod-form-data";

/** What a form's server action answers; `values` refill the form after an error, `at` tells answers apart. */
export type TFormState<TResult = undefined> =
  | { status: "idle" }
  | { status: "error"; message: string; fieldErrors: Record<string, string>; values: Record<string, string>; at: number }
  | { status: "success"; message: string; result: TResult; at: number };

export const IDLE_FORM_STATE = { status: "idle" } as const satisfies TFormState<never>;

/** A text field as the services take it: absent or blank is "" (each service checks its own input). */
export const ZFormText = zfd.text(z.string().default(""));

/** A text field trimmed; absent or blank is "". */
export const ZFormTrimmed = zfd.text(z.string().trim().default(""));

/** A file field: the chosen file, or null when none was chosen (an empty file input). */
export const ZFormFile = zfd.file(z.instanceof(Blob).optional()).transform((file) => file ?? null);

/** A file field's bytes (ZFormFile's value), or null. */
export async function bytesOf(file: Blob | null): Promise<Uint8Array | null> {
  return file ? new Uint8Array(await file.arrayBuffer()) : null;
}

/** FormData as a plain object: a name given once is its value, a name repeated (checkboxes) the list of its values. */
export function formObject(form: FormData): Record<string, unknown> {
  return zfd.preprocessFormData(form);
}

/** FormData parsed by a schema; a ZodError names the fields that are wrong. */
export function parseForm<S extends z.ZodType>(schema: S, form: FormData): z.output<S> {
  return zfd.formData(schema).parse(form);
}
