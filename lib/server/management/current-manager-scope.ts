import { AppError } from "@/lib/errors";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { resolveManagerScope, type TManagerScope } from "./resolve-manager-scope";

/** Who a /gestao server action acts for: the signed-in gestor's reach, re-read on every call. */
export async function currentManagerScope(): Promise<TManagerScope> {
  const user = await getCurrentUser();
  if (!user) throw new AppError("unauthorized", "Sua sessão expirou. Entre novamente.");
  if (!user.profile) throw new AppError("forbidden", "Escolha um perfil de gestor para continuar.");
  return resolveManagerScope({ personId: user.personId, profileId: user.profile.id });
}
