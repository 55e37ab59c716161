import type { Role } from "@/lib/generated/prisma/enums";

export const ROLE_LABEL: Record<Role, string> = {
  aluno: "Aluno(a)",
  professor: "Professor(a)",
  responsavel: "Responsável",
  gestor: "Gestor(a)",
};
