import { AppError } from "@/lib/errors";
import type { Profile, Role } from "@/lib/generated/prisma/client";
import type { Tx } from "./record-change";

const ROLE_LABEL: Record<Role, string> = { aluno: "aluno", professor: "professor", responsavel: "responsável", gestor: "gestor" };

/** Loads a profile and checks its role and, when given, that it belongs to `institutionId`. */
export async function requireProfile(tx: Tx, profileId: string, role: Role, institutionId?: string): Promise<Profile> {
  const profile = await tx.profile.findUnique({ where: { id: profileId } });
  if (!profile) throw new AppError("not_found", `Perfil de ${ROLE_LABEL[role]} não encontrado.`);
  if (profile.role !== role) throw new AppError("bad_request", `O perfil informado não é de ${ROLE_LABEL[role]}.`);
  if (institutionId && profile.institutionId !== institutionId) {
    throw new AppError("bad_request", `O ${ROLE_LABEL[role]} é de outra instituição.`);
  }
  return profile;
}
