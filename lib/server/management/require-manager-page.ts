import { notFound } from "next/navigation";
import { AppError } from "@/lib/errors";
import { requireProfile, type CurrentUser } from "@/lib/server/auth/current-user";
import { requireInReach } from "./require-in-reach";
import { resolveManagerScope, type TManagedInstitution, type TManagerScope } from "./resolve-manager-scope";

/**
 * For /gestao pages: the signed-in manager's reach (sign-in and profile choice redirect first).
 * A profile that is not a gestor, or an institution outside the reach, is a 404: the page does
 * not exist for them.
 */
export async function requireManagerPage(options: { returnTo: string; institutionId?: string }): Promise<{
  user: CurrentUser;
  scope: TManagerScope;
  institution: TManagedInstitution;
}> {
  const user = await requireProfile(options.returnTo);
  try {
    const scope = await resolveManagerScope({ personId: user.personId, profileId: user.profile.id });
    const institution = requireInReach({ scope, institutionId: options.institutionId ?? scope.rootId });
    return { user, scope, institution };
  } catch (error) {
    if (error instanceof AppError && (error.code === "forbidden" || error.code === "not_found")) notFound();
    throw error;
  }
}

/** A /gestao/{institutionId}/{section} page: requireManagerPage for it, and the section's path. */
export async function requireManagerSection(params: Promise<{ institutionId: string }>, section: string) {
  const { institutionId } = await params;
  const page = await requireManagerPage({ returnTo: `/gestao/${institutionId}/${section}`, institutionId });
  return { ...page, basePath: `/gestao/${page.institution.id}/${section}` };
}
