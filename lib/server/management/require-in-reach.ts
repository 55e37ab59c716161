import { AppError } from "@/lib/errors";
import { ZIdSchema } from "@/lib/validations/management";
import type { TManagedInstitution, TManagerScope } from "./resolve-manager-scope";

/**
 * The institution, when the manager reaches it. Anything else — another school, a malformed id,
 * an institution that does not exist — is the same 404, so a manager cannot probe for the
 * existence of institutions outside their reach.
 */
export function requireInReach(options: { scope: TManagerScope; institutionId: string | null | undefined }): TManagedInstitution {
  const id = ZIdSchema.safeParse(options.institutionId);
  const found = id.success ? options.scope.institutions.find((i) => i.id === id.data.toLowerCase()) : undefined;
  if (!found) throw new AppError("not_found", "Instituição não encontrada.");
  return found;
}
