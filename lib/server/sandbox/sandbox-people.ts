// Plainly fake people for sandbox networks: "Fictício" names, addresses in the reserved
// .invalid domain (RFC 6761), no CPF, a phone number of the 0000 range.
import type { TPersonInput } from "@/lib/validations/school-data";

export const SANDBOX_PASSWORD_PURPOSE = "sandbox-password";
export const SANDBOX_EMAIL_DOMAIN = "sandbox.invalid";

const ROLE_NAMES = { aluno: "Aluno", professor: "Professora", responsavel: "Responsável" } as const;

/** The n-th fake person of a sandbox (`tag` keeps two sandboxes' e-mails apart). */
export function sandboxPerson(role: keyof typeof ROLE_NAMES, n: number, tag: string): Omit<TPersonInput, "password"> {
  return {
    name: `${ROLE_NAMES[role]} Fictício ${n}`,
    email: `${role}${n}.${tag}@${SANDBOX_EMAIL_DOMAIN}`,
    phone: `1190000${String(n % 10_000).padStart(4, "0")}`,
    birthDate: role === "aluno" ? `${2014 - (n % 4)}-0${(n % 9) + 1}-1${n % 9}` : `198${n % 10}-0${(n % 9) + 1}-2${n % 9}`,
  };
}
