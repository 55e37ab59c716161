import type { Role } from "@/lib/generated/prisma/enums";

export const ROLE_LABEL: Record<Role, string> = {
  aluno: "Aluno(a)",
  professor: "Professor(a)",
  responsavel: "Responsável",
  gestor: "Gestor(a)",
};

/** Only same-site paths may be used after sign-in (no open redirects). */
export function safeCallbackUrl(value: string | string[] | undefined, fallback = "/"): string {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v || !v.startsWith("/") || v.startsWith("//") || v.startsWith("/\\")) return fallback;
  return v;
}
