import { z } from "zod";

const ZUuid = z.uuid({ message: "Identificador inválido" });
const ZDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use o formato AAAA-MM-DD")
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), "Data inexistente");

/** CPF check digits (Receita Federal algorithm); all-equal digits are invalid by rule. */
export function isValidCpf(digits: string): boolean {
  if (!/^\d{11}$/.test(digits) || /^(\d)\1{10}$/.test(digits)) return false;
  const check = (len: number) => {
    let sum = 0;
    for (let i = 0; i < len; i++) sum += Number(digits[i]) * (len + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  return check(9) === Number(digits[9]) && check(10) === Number(digits[10]);
}

export const ZCpf = z
  .string()
  .transform((s) => s.replace(/[.\-\s]/g, ""))
  .refine(isValidCpf, "CPF inválido");

export const ZPhone = z
  .string()
  .transform((s) => s.replace(/[\s()\-.]/g, ""))
  .refine((s) => /^\+?\d{10,13}$/.test(s), "Telefone inválido (use DDD e número)");

const ZName = z.string().trim().min(2, "Informe o nome").max(200, "Nome longo demais");

export const ZPersonInputSchema = z.object({
  name: ZName,
  birthDate: ZDate.nullish(),
  cpf: ZCpf.nullish(),
  email: z.email("E-mail inválido").max(254).transform((s) => s.toLowerCase()).nullish(),
  phone: ZPhone.nullish(),
  password: z.string().min(8, "A senha precisa de ao menos 8 caracteres").max(200).nullish(),
});
export type TPersonInput = z.input<typeof ZPersonInputSchema>;

export const ZPersonUpdateSchema = ZPersonInputSchema.partial();
export type TPersonUpdate = z.input<typeof ZPersonUpdateSchema>;

export const ZRoleSchema = z.enum(["aluno", "professor", "responsavel", "gestor"]);

export const ZProfileInputSchema = z.object({
  personId: ZUuid,
  institutionId: ZUuid,
  role: ZRoleSchema,
});
export type TProfileInput = z.input<typeof ZProfileInputSchema>;

export const ZPeriodInputSchema = z
  .object({
    institutionId: ZUuid,
    code: z.string().regex(/^\d{4}$/, "O código do período é um ano, como 2026"),
    name: z.string().trim().min(1, "Informe o nome").max(100),
    startsOn: ZDate,
    endsOn: ZDate,
  })
  .refine((p) => p.startsOn <= p.endsOn, { message: "O fim vem antes do início", path: ["endsOn"] });
export type TPeriodInput = z.input<typeof ZPeriodInputSchema>;

export const ZPeriodUpdateSchema = z.object({
  name: z.string().trim().min(1).max(100).optional(),
  startsOn: ZDate.optional(),
  endsOn: ZDate.optional(),
});

export const ZSubjectInputSchema = z.object({
  institutionId: ZUuid,
  name: z.string().trim().min(1, "Informe o nome").max(100),
  code: z.string().trim().max(30).nullish(),
});
export type TSubjectInput = z.input<typeof ZSubjectInputSchema>;
export const ZSubjectUpdateSchema = ZSubjectInputSchema.omit({ institutionId: true }).partial();

export const ZClassInputSchema = z.object({
  periodId: ZUuid,
  name: z.string().trim().min(1, "Informe o nome").max(100),
  grade: z.string().trim().max(50).nullish(),
  shift: z.enum(["manha", "tarde", "noite", "integral"]).nullish(),
});
export type TClassInput = z.input<typeof ZClassInputSchema>;
export const ZClassUpdateSchema = ZClassInputSchema.omit({ periodId: true }).partial();

export const ZEnrollmentInputSchema = z.object({ classId: ZUuid, studentId: ZUuid });
export const ZTeachingInputSchema = z.object({ classId: ZUuid, subjectId: ZUuid, teacherId: ZUuid });
export const ZGuardianshipInputSchema = z.object({
  guardianId: ZUuid,
  studentId: ZUuid,
  kinship: z.string().trim().max(50).nullish(),
});
