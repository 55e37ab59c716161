import { AppError } from "@/lib/errors";
import { ZApplicationFieldsSchema, type TApplicationFields, type TApplicationFieldsForm } from "@/lib/validations/developer";

/** Every field of the application form checked at once; one 400 naming each bad field. */
export function parseApplicationInput(fields: TApplicationFieldsForm): TApplicationFields {
  const parsed = ZApplicationFieldsSchema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const errors: Record<string, string> = {};
  for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "_")] ??= issue.message;
  throw new AppError("bad_request", "Revise os campos destacados.", errors);
}
