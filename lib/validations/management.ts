// Boundary schemas of the manager area (/gestao): list queries, commands, access settings,
// placements, the institution tree, CSV import rows and the dashboard filters. Form fields keep
// the names of the school-data schemas so a validation message lands next to its field.
import { z } from "zod";
import { zfd } from "zod-form-data";
import { ZFormText, ZFormTrimmed } from "@/lib/validations/form";
import { ENTITY_NAMES, EVENT_KINDS, PERSONAL_ATTRIBUTES, PROFILE_ROLES, type TProfileRole } from "@/lib/validations/data-api";
import {
  ZClassInputSchema,
  ZClassUpdateSchema,
  ZPeriodInputSchema,
  ZPeriodUpdateSchema,
  ZPersonInputSchema,
  ZPersonUpdateSchema,
  ZPhone,
  ZRoleSchema,
  ZSubjectInputSchema,
  isValidCpf,
  ZSubjectUpdateSchema,
} from "@/lib/validations/school-data";

export const ZIdSchema = z.uuid({ message: "Identificador inválido" });

/** `?page=` and friends arrive as strings (or arrays, or nothing): never let them fail a page. */
const ZPage = z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.coerce.number().int().min(1).max(100_000).catch(1)).default(1);
const ZSearch = z.preprocess(
  (v) => (Array.isArray(v) ? v[0] : v),
  z.string().trim().max(100).catch("").optional().transform((s) => s || undefined),
);

export const PAGE_SIZE = 20;

const ROLES = ["aluno", "professor", "responsavel", "gestor"] as const;

export const ZListQuerySchema = z.object({ q: ZSearch, page: ZPage });
export type TListQuery = z.output<typeof ZListQuerySchema>;

/** A filter value that must be one of a few options; anything else counts as "no filter". */
export function ZOptionalChoice<T extends string>(values: readonly [T, ...T[]]) {
  return z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.enum(values).optional().catch(undefined));
}

export const ZPeopleQuerySchema = ZListQuerySchema.extend({ role: ZOptionalChoice(ROLES) });
export const ZClassesQuerySchema = ZListQuerySchema.extend({
  periodo: z.preprocess((v) => (Array.isArray(v) ? v[0] : v), z.string().regex(/^\d{4}$/).optional().catch(undefined)),
});

// ---------------------------------------------------------------- school-data commands

/**
 * Every write a manager makes to school data, validated with the school-data schemas before any
 * lookup (a malformed id must be a 400, never a database error).
 */
export const ZSchoolDataCommandSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("createPeriod"), input: ZPeriodInputSchema }),
  z.object({ type: z.literal("updatePeriod"), periodId: ZIdSchema, changes: ZPeriodUpdateSchema }),
  z.object({ type: z.literal("deletePeriod"), periodId: ZIdSchema }),
  z.object({ type: z.literal("createSubject"), input: ZSubjectInputSchema }),
  z.object({ type: z.literal("updateSubject"), subjectId: ZIdSchema, changes: ZSubjectUpdateSchema }),
  z.object({ type: z.literal("deleteSubject"), subjectId: ZIdSchema }),
  z.object({ type: z.literal("createClass"), input: ZClassInputSchema }),
  z.object({ type: z.literal("updateClass"), classId: ZIdSchema, changes: ZClassUpdateSchema }),
  z.object({ type: z.literal("deleteClass"), classId: ZIdSchema }),
  z.object({ type: z.literal("createPerson"), institutionId: ZIdSchema, role: ZRoleSchema, person: ZPersonInputSchema }),
  z.object({ type: z.literal("updatePerson"), personId: ZIdSchema, changes: ZPersonUpdateSchema }),
  z.object({ type: z.literal("addProfile"), personId: ZIdSchema, institutionId: ZIdSchema, role: ZRoleSchema }),
  z.object({ type: z.literal("deleteProfile"), profileId: ZIdSchema }),
  z.object({ type: z.literal("enrollStudent"), classId: ZIdSchema, studentId: ZIdSchema }),
  z.object({ type: z.literal("unenrollStudent"), enrollmentId: ZIdSchema }),
  z.object({ type: z.literal("assignTeacher"), classId: ZIdSchema, subjectId: ZIdSchema, teacherId: ZIdSchema }),
  z.object({ type: z.literal("unassignTeacher"), assignmentId: ZIdSchema }),
  z.object({ type: z.literal("linkGuardian"), guardianId: ZIdSchema, studentId: ZIdSchema, kinship: z.string().trim().max(50).nullish() }),
  z.object({ type: z.literal("unlinkGuardian"), guardianshipId: ZIdSchema }),
]);
export type TSchoolDataCommand = z.input<typeof ZSchoolDataCommandSchema>;

// ---------------------------------------------------------------- institutions

/** Changes to the institution tree a manager may make (within their reach). */
export const ZInstitutionCommandSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("create"),
    parentId: ZIdSchema,
    name: z.string().trim().min(2, "Informe o nome (ao menos 2 letras)").max(200, "Nome longo demais"),
    kind: z.enum(["network", "school"], { message: "Escolha rede ou escola" }),
  }),
  z.object({ type: z.literal("rename"), institutionId: ZIdSchema, name: z.string() }),
  z.object({ type: z.literal("move"), institutionId: ZIdSchema, parentId: z.string() }),
]);
export type TInstitutionCommand = z.input<typeof ZInstitutionCommandSchema>;

// ---------------------------------------------------------------- edtech links and access

export const ATTRIBUTE_RULES = ["permitido", "anonimizado", "nao_compartilhado"] as const;
export type TAttributeRule = (typeof ATTRIBUTE_RULES)[number];

/** One rule per personal attribute: shared, anonymized or not shared. */
const ZAttributeRulesSchema = z.object(
  Object.fromEntries(PERSONAL_ATTRIBUTES.map((a) => [a, z.enum(ATTRIBUTE_RULES, { message: "Escolha uma opção" })])) as Record<
    (typeof PERSONAL_ATTRIBUTES)[number],
    z.ZodEnum<{ permitido: "permitido"; anonimizado: "anonimizado"; nao_compartilhado: "nao_compartilhado" }>
  >,
);

/**
 * Per-role overrides of the base rules (docs/decisions/015-sharing-rules-per-role.md): a role
 * listed gets its own rule per attribute; a role absent follows the base. Unknown roles are refused.
 */
const ZRoleRulesSchema = z.strictObject(
  Object.fromEntries(PROFILE_ROLES.map((role) => [role, ZAttributeRulesSchema.optional()])) as Record<TProfileRole, z.ZodOptional<typeof ZAttributeRulesSchema>>,
  { error: "Regras por perfil inválidas: use aluno, professor, responsavel ou gestor" },
);

export const ZAccessSettingsSchema = z.object({
  institutionId: ZIdSchema,
  applicationId: ZIdSchema,
  rules: ZAttributeRulesSchema,
  roles: ZRoleRulesSchema.default({}),
  /** OneRoster 1.2 enabled by this rule row (docs/decisions/039-oneroster-token-endpoint.md). */
  oneRoster: z.boolean().default(false),
});
export type TAccessSettingsInput = z.input<typeof ZAccessSettingsSchema>;

/** The same rules for an LTI tool (its launches' lis_person_* fields). */
export const ZToolSharingSchema = z.object({
  institutionId: ZIdSchema,
  toolId: ZIdSchema,
  rules: ZAttributeRulesSchema,
  roles: ZRoleRulesSchema.default({}),
});

// The sharing-rule card's form (/gestao aplicativos and ferramentas), one flat field per control so
// each message lands next to its control: `mode` (propria | herdar), one field per attribute (the
// base rule), and per role `perfil_<role>` (geral: follow the base | propria) with, when propria,
// one field `<role>_<attribute>` per attribute; an application's card also has the checkbox
// `oneRoster` (value "1" when checked, absent when not).
export const ROLE_RULE_MODES = ["geral", "propria"] as const;
export const roleModeField = (role: TProfileRole) => `perfil_${role}`;
export const roleRuleField = (role: TProfileRole, attribute: (typeof PERSONAL_ATTRIBUTES)[number]) => `${role}_${attribute}`;

const ZRuleChoice = z.enum(ATTRIBUTE_RULES, { message: "Escolha uma opção" });
const ZSharingRuleFormSchema = z
  .object({
    mode: z.enum(["propria", "herdar"], { message: "Escolha configuração própria ou herdar" }),
    oneRoster: z.enum(["1"], { message: "Marque ou desmarque o OneRoster" }).optional(),
    ...Object.fromEntries(PERSONAL_ATTRIBUTES.map((a) => [a, ZRuleChoice.optional()])),
    ...Object.fromEntries(PROFILE_ROLES.map((r) => [roleModeField(r), z.enum(ROLE_RULE_MODES, { message: "Escolha seguir a regra geral ou uma regra própria" }).default("geral")])),
    ...Object.fromEntries(PROFILE_ROLES.flatMap((r) => PERSONAL_ATTRIBUTES.map((a) => [roleRuleField(r, a), ZRuleChoice.optional()]))),
  })
  .superRefine((form: Record<string, string | undefined>, ctx) => {
    if (form.mode !== "propria") return;
    const required = [
      ...PERSONAL_ATTRIBUTES,
      ...PROFILE_ROLES.filter((r) => form[roleModeField(r)] === "propria").flatMap((r) => PERSONAL_ATTRIBUTES.map((a) => roleRuleField(r, a))),
    ];
    for (const field of required) if (!form[field]) ctx.addIssue({ code: "custom", path: [field], message: "Escolha uma opção" });
  });

export type TSharingRuleForm =
  | { remove: true }
  | { remove: false; rules: z.output<typeof ZAttributeRulesSchema>; roles: z.output<typeof ZRoleRulesSchema>; oneRoster: boolean };

/**
 * The card's fields (blank ones and non-text ones ignored) → "inherit" or the rules to save. Throws a ZodError naming
 * the fields on bad input, before anything is read or written.
 */
export function parseSharingRuleForm(values: Record<string, unknown>): TSharingRuleForm {
  const present = Object.fromEntries(Object.entries(values).flatMap(([k, v]) => (typeof v === "string" && v.trim() !== "" ? [[k, v.trim()]] : [])));
  const form = ZSharingRuleFormSchema.parse(present) as Record<string, string>;
  if (form.mode === "herdar") return { remove: true };
  const rulesOf = (field: (a: (typeof PERSONAL_ATTRIBUTES)[number]) => string) =>
    Object.fromEntries(PERSONAL_ATTRIBUTES.map((a) => [a, form[field(a)]])) as z.output<typeof ZAttributeRulesSchema>;
  return {
    remove: false,
    rules: rulesOf((a) => a),
    roles: Object.fromEntries(PROFILE_ROLES.filter((r) => form[roleModeField(r)] === "propria").map((r) => [r, rulesOf((a) => roleRuleField(r, a))])),
    oneRoster: form.oneRoster === "1",
  };
}
export type TToolSharingInput = z.input<typeof ZToolSharingSchema>;

export const ZEdtechLinkSchema = z.object({ institutionId: ZIdSchema, edtechId: ZIdSchema });

// ---------------------------------------------------------------- placements

const CUSTOM_PARAM_NAME = /^[a-z0-9_]{1,50}$/;

/** `chave=valor` per line → the placement's custom parameters (sent as custom_<chave>). */
export const ZCustomParamsSchema = z
  .string()
  .max(4000, "Parâmetros longos demais")
  .transform((text, ctx) => {
    const params: Record<string, string> = {};
    for (const [i, raw] of text.split(/\r?\n/).entries()) {
      const line = raw.trim();
      if (!line) continue;
      const eq = line.indexOf("=");
      const key = eq > 0 ? line.slice(0, eq).trim().toLowerCase() : "";
      if (!CUSTOM_PARAM_NAME.test(key)) {
        ctx.addIssue({ code: "custom", message: `Linha ${i + 1}: use chave=valor, com a chave em letras minúsculas, números ou _` });
        return z.NEVER;
      }
      params[key] = line.slice(eq + 1).trim().slice(0, 500);
    }
    if (Object.keys(params).length > 20) {
      ctx.addIssue({ code: "custom", message: "No máximo 20 parâmetros" });
      return z.NEVER;
    }
    return params;
  });

export const PLACEMENT_AUDIENCES = ["escola", "papeis", "turma"] as const;
const ZPlacementAudienceSchema = z.enum(PLACEMENT_AUDIENCES, { message: "Escolha para quem a ferramenta aparece" });

export const ZPlacementInputSchema = z
  .object({
    institutionId: ZIdSchema,
    toolId: z.uuid({ message: "Escolha uma ferramenta" }),
    title: z.string().trim().max(120, "Título longo demais").optional().transform((s) => s || null),
    audience: ZPlacementAudienceSchema,
    roles: z.array(ZRoleSchema).default([]),
    classId: z.string().optional().transform((s) => s || undefined),
    customParams: ZCustomParamsSchema.default({}),
  })
  .superRefine((p, ctx) => {
    if (p.audience === "papeis" && p.roles.length === 0) ctx.addIssue({ code: "custom", path: ["roles"], message: "Escolha ao menos um papel" });
    if (p.audience === "turma" && !z.uuid().safeParse(p.classId).success) ctx.addIssue({ code: "custom", path: ["classId"], message: "Escolha a turma" });
  })
  .transform((p) => ({
    institutionId: p.institutionId,
    toolId: p.toolId,
    title: p.title,
    // A class placement reaches the class's members; roles may still narrow it (e.g. teachers).
    roles: p.audience === "escola" ? [] : p.roles,
    classId: p.audience === "turma" ? p.classId! : null,
    customParams: p.customParams,
  }));
export type TPlacementInput = z.input<typeof ZPlacementInputSchema>;

// ---------------------------------------------------------------- dashboard and access log

const ZDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Use o formato AAAA-MM-DD")
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), "Data inexistente");

const asList = (v: unknown) => (v === undefined ? undefined : (Array.isArray(v) ? v : [v]).flatMap((s) => String(s).split(",")).filter(Boolean));

/** Dashboard filters as they arrive in the page's query string (checkboxes repeat the name). */
export const ZSummaryFiltersSchema = z
  .object({
    de: z.preprocess((v) => (Array.isArray(v) ? v[0] : v || undefined), ZDay.optional()),
    ate: z.preprocess((v) => (Array.isArray(v) ? v[0] : v || undefined), ZDay.optional()),
    evento: z.preprocess(asList, z.array(z.enum(EVENT_KINDS, { message: "Evento desconhecido" })).optional()),
    entidade: z.preprocess(asList, z.array(z.enum(ENTITY_NAMES, { message: "Entidade desconhecida" })).optional()),
  })
  .refine((f) => !f.de || !f.ate || f.de <= f.ate, { path: ["ate"], message: "A data final vem antes da inicial" });
export type TSummaryFilters = z.output<typeof ZSummaryFiltersSchema>;

/** The channels of the institution's access log (DataAccessLog.channel). */
export const ACCESS_CHANNELS = ["data_api", "summary", "user_info", "id_token", "lti_launch", "oneroster"] as const;
export type TAccessChannel = (typeof ACCESS_CHANNELS)[number];

/**
 * A partner in the access log's filter: an application or a tool by id, or an application deleted
 * since (its rows keep only its name). In the query string: `aplicacao:<id>`, `ferramenta:<id>`,
 * `excluida:<name>`.
 */
export type TPartnerFilter = { kind: "application"; id: string } | { kind: "tool"; id: string } | { kind: "deleted"; name: string };

export function partnerFilterValue(partner: TPartnerFilter): string {
  return partner.kind === "deleted" ? `excluida:${partner.name}` : `${partner.kind === "application" ? "aplicacao" : "ferramenta"}:${partner.id}`;
}

const ZPartnerFilterSchema = z.preprocess(
  (v) => (Array.isArray(v) ? v[0] : v || undefined),
  z
    .string()
    .max(300)
    .transform((value, ctx): TPartnerFilter => {
      const at = value.indexOf(":");
      const [kind, rest] = [value.slice(0, at), value.slice(at + 1)];
      if (kind === "excluida" && rest.trim()) return { kind: "deleted", name: rest };
      if ((kind === "aplicacao" || kind === "ferramenta") && z.uuid().safeParse(rest).success) return { kind: kind === "aplicacao" ? "application" : "tool", id: rest.toLowerCase() };
      ctx.addIssue({ code: "custom", message: "Parceiro desconhecido" });
      return z.NEVER;
    })
    .optional()
    .catch(undefined),
);

export const ZAccessLogQuerySchema = ZListQuerySchema.extend({
  parceiro: ZPartnerFilterSchema,
  canal: ZOptionalChoice(ACCESS_CHANNELS),
  de: z.preprocess((v) => (Array.isArray(v) ? v[0] : v || undefined), ZDay.optional().catch(undefined)),
  ate: z.preprocess((v) => (Array.isArray(v) ? v[0] : v || undefined), ZDay.optional().catch(undefined)),
});

/** The sharing-rule history's filter: one partner (application or tool), by id. */
export const ZRuleHistoryQuerySchema = z.object({
  page: ZPage,
  parceiro: z.preprocess((v) => (Array.isArray(v) ? v[0] : v || undefined), z.uuid().optional().catch(undefined)),
});

// ---------------------------------------------------------------- CSV import

export const IMPORT_KINDS = ["pessoas", "periodos", "disciplinas", "turmas", "matriculas", "professores", "responsaveis"] as const;
export type TImportKind = (typeof IMPORT_KINDS)[number];
export const ZImportKindSchema = z.enum(IMPORT_KINDS, { message: "Escolha o tipo de arquivo" });

/** Largest file and row count one import accepts (one transaction must hold it). */
export const IMPORT_MAX_BYTES = 8 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 20_000;

export const ZImportRequestSchema = z.object({
  kind: ZImportKindSchema,
  csv: z.string().min(1, "O arquivo está vazio").max(IMPORT_MAX_BYTES, "Arquivo grande demais (máximo 8 MB)"),
});

export interface TImportColumn {
  /** Header name (matched ignoring case, accents, spaces and punctuation). */
  name: string;
  /** Other headers spreadsheets commonly use for the column. */
  aliases?: string[];
  required: boolean;
  description: string;
  example: string;
}

const personRef = (who: string) => `CPF ou e-mail de ${who} já cadastrado(a) nesta escola`;

/** The columns of each import file, in template order; also the help shown on the import page. */
export const IMPORT_COLUMNS: Record<TImportKind, TImportColumn[]> = {
  pessoas: [
    { name: "nome", required: true, description: "Nome completo", example: "Maria da Silva" },
    { name: "perfil", required: true, description: "aluno, professor, responsavel ou gestor", example: "aluno" },
    { name: "cpf", required: false, description: "CPF com ou sem pontuação (único no Hub)", example: "529.982.247-25" },
    { name: "email", required: false, description: "E-mail (único no Hub)", example: "maria@escola.br" },
    { name: "telefone", aliases: ["celular"], required: false, description: "Celular com DDD", example: "(11) 99999-0000" },
    { name: "nascimento", aliases: ["data de nascimento", "data nascimento", "data_nasc"], required: false, description: "AAAA-MM-DD ou DD/MM/AAAA", example: "2014-03-21" },
    { name: "turma", required: false, description: "Só para alunos: nome da turma em que será matriculado", example: "7º ano A" },
    { name: "periodo", aliases: ["ano letivo"], required: false, description: "Código do período da turma (obrigatório com turma)", example: "2026" },
  ],
  periodos: [
    { name: "codigo", required: true, description: "Ano do período", example: "2027" },
    { name: "nome", required: true, description: "Nome", example: "Ano letivo 2027" },
    { name: "inicio", required: true, description: "Início (AAAA-MM-DD ou DD/MM/AAAA)", example: "2027-02-01" },
    { name: "fim", required: true, description: "Fim (AAAA-MM-DD ou DD/MM/AAAA)", example: "2027-12-15" },
  ],
  disciplinas: [
    { name: "nome", required: true, description: "Nome da disciplina (único na escola)", example: "Robótica" },
    { name: "codigo", required: false, description: "Código interno", example: "ROB" },
  ],
  turmas: [
    { name: "periodo", required: true, description: "Código do período já cadastrado", example: "2026" },
    { name: "nome", required: true, description: "Nome da turma (único no período)", example: "9º ano C" },
    { name: "serie", required: false, description: "Série ou ano", example: "9º ano" },
    { name: "turno", required: false, description: "manha, tarde, noite ou integral", example: "manha" },
  ],
  matriculas: [
    { name: "periodo", required: true, description: "Código do período da turma", example: "2026" },
    { name: "turma", required: true, description: "Nome da turma", example: "7º ano A" },
    { name: "aluno", required: true, description: personRef("o aluno"), example: "529.982.247-25" },
  ],
  professores: [
    { name: "periodo", required: true, description: "Código do período da turma", example: "2026" },
    { name: "turma", required: true, description: "Nome da turma", example: "7º ano A" },
    { name: "disciplina", required: true, description: "Nome da disciplina", example: "Matemática" },
    { name: "professor", required: true, description: personRef("o professor"), example: "prof@escola.br" },
  ],
  responsaveis: [
    { name: "responsavel", required: true, description: personRef("o responsável"), example: "mae@familia.br" },
    { name: "aluno", required: true, description: personRef("o aluno"), example: "529.982.247-25" },
    { name: "parentesco", required: false, description: "mãe, pai, avó...", example: "mãe" },
  ],
};

export const IMPORT_KIND_LABEL: Record<TImportKind, string> = {
  pessoas: "Pessoas (alunos, professores, responsáveis, gestores)",
  periodos: "Períodos letivos",
  disciplinas: "Disciplinas",
  turmas: "Turmas",
  matriculas: "Matrículas (aluno em turma)",
  professores: "Professores por disciplina e turma",
  responsaveis: "Responsáveis por aluno",
};

/** Header text → its column key: "Data de Nascimento" and "data_nascimento" both match. */
export function normalizeHeader(header: string): string {
  return header.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase().replace(/[^a-z0-9]/g, "");
}

const empty = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const ZDayCell = z
  .string({ message: "Informe a data" })
  .transform((s) => {
    const br = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s.trim());
    return br ? `${br[3]}-${br[2]}-${br[1]}` : s.trim();
  })
  .pipe(
    z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/, "Data: use AAAA-MM-DD ou DD/MM/AAAA")
      .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s), "Data inexistente"),
  );
const ZImportDay = z.preprocess(empty, ZDayCell);
const ZOptionalImportDay = z.preprocess(empty, ZDayCell.optional());
const required = (label: string, max = 200) => z.preprocess(empty, z.string({ message: `Informe ${label}` }).max(max, `${label}: longo demais`));
const optional = (max: number) => z.preprocess(empty, z.string().max(max).optional());
const ZPersonRef = (label: string) =>
  z.preprocess(empty, z.string({ message: `Informe ${label} (CPF ou e-mail)` }).max(254)).transform((s, ctx) => {
    if (s.includes("@")) return { email: s.toLowerCase() };
    const digits = s.replace(/[.\-\s]/g, "");
    if (!/^\d{11}$/.test(digits)) {
      ctx.addIssue({ code: "custom", message: `${label}: informe um CPF (11 dígitos) ou um e-mail` });
      return z.NEVER;
    }
    return { cpf: digits };
  });
const ZRoleCell = z.preprocess(
  (v) => (typeof v === "string" ? v.normalize("NFD").replace(/\p{Diacritic}/gu, "").trim().toLowerCase().replace(/\(a\)$/, "") : v),
  z.enum(["aluno", "professor", "responsavel", "gestor"], { message: "Perfil: use aluno, professor, responsavel ou gestor" }),
);
const ZPeriodCode = z.preprocess(empty, z.string({ message: "Informe o período" }).regex(/^\d{4}$/, "Período: use o ano, como 2026"));

/** One row of each file, as the cells arrive (strings); the school-data rules still apply on write. */
export const IMPORT_ROW_SCHEMAS = {
  pessoas: z
    .object({
      nome: z.preprocess(empty, z.string({ message: "Informe o nome" }).trim().min(2, "Nome: ao menos 2 letras").max(200, "Nome longo demais")),
      perfil: ZRoleCell,
      cpf: z.preprocess(empty, z.string().transform((s) => s.replace(/[.\-\s]/g, "")).refine((s) => /^\d{11}$/.test(s) && isValidCpf(s), "CPF inválido").optional()),
      email: z.preprocess(empty, z.email("E-mail inválido").max(254).transform((s) => s.toLowerCase()).optional()),
      telefone: z.preprocess(empty, ZPhone.optional()),
      nascimento: ZOptionalImportDay,
      turma: optional(100),
      periodo: z.preprocess(empty, z.string().regex(/^\d{4}$/, "Período: use o ano, como 2026").optional()),
    })
    .superRefine((r, ctx) => {
      if (r.turma && r.perfil !== "aluno") ctx.addIssue({ code: "custom", path: ["turma"], message: "Turma: só alunos são matriculados pela importação de pessoas" });
      if (r.turma && !r.periodo) ctx.addIssue({ code: "custom", path: ["periodo"], message: "Informe o período da turma" });
      if (r.periodo && !r.turma) ctx.addIssue({ code: "custom", path: ["turma"], message: "Informe a turma do período" });
    }),
  periodos: z
    .object({ codigo: ZPeriodCode, nome: required("o nome", 100), inicio: ZImportDay, fim: ZImportDay })
    .refine((r) => r.inicio <= r.fim, { path: ["fim"], message: "O fim vem antes do início" }),
  disciplinas: z.object({ nome: required("o nome", 100), codigo: optional(30) }),
  turmas: z.object({
    periodo: ZPeriodCode,
    nome: required("o nome", 100),
    serie: optional(50),
    turno: z.preprocess(
      (v) => (typeof v === "string" ? empty(v.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase()) : v),
      z.enum(["manha", "tarde", "noite", "integral"], { message: "Turno: use manha, tarde, noite ou integral" }).optional(),
    ),
  }),
  matriculas: z.object({ periodo: ZPeriodCode, turma: required("a turma", 100), aluno: ZPersonRef("o aluno") }),
  professores: z.object({ periodo: ZPeriodCode, turma: required("a turma", 100), disciplina: required("a disciplina", 100), professor: ZPersonRef("o professor") }),
  responsaveis: z.object({ responsavel: ZPersonRef("o responsável"), aluno: ZPersonRef("o aluno"), parentesco: optional(50) }),
} satisfies Record<TImportKind, z.ZodType>;

export type TImportRowOf<K extends TImportKind> = z.output<(typeof IMPORT_ROW_SCHEMAS)[K]>;

// ---------------------------------------------------------------- forms → commands

/**
 * Where each field of a school-data form goes in its command (the form's hidden `type` says which
 * command): one path per field, the field named by the path's last segment. Blank fields stay ""
 * unless marked: "?" = left out when blank (not informed, on create; a blank password on update
 * keeps the current one), "?null" = null when blank (cleared, on update).
 */
const SCHOOL_DATA_FORM_FIELDS = new Map<string, readonly string[]>(
  Object.entries({
    createPeriod: ["input.institutionId", "input.code", "input.name", "input.startsOn", "input.endsOn"],
    updatePeriod: ["periodId", "changes.name", "changes.startsOn", "changes.endsOn"],
    deletePeriod: ["periodId"],
    createSubject: ["input.institutionId", "input.name", "input.code?null"],
    updateSubject: ["subjectId", "changes.name", "changes.code?null"],
    deleteSubject: ["subjectId"],
    createClass: ["input.periodId", "input.name", "input.grade?null", "input.shift?null"],
    updateClass: ["classId", "changes.name", "changes.grade?null", "changes.shift?null"],
    deleteClass: ["classId"],
    createPerson: ["institutionId", "role", "person.name", "person.cpf?", "person.email?", "person.phone?", "person.birthDate?", "person.password?"],
    updatePerson: ["personId", "changes.name", "changes.cpf?null", "changes.email?null", "changes.phone?null", "changes.birthDate?null", "changes.password?"],
    addProfile: ["personId", "institutionId", "role"],
    deleteProfile: ["profileId"],
    enrollStudent: ["classId", "studentId"],
    unenrollStudent: ["enrollmentId"],
    assignTeacher: ["classId", "subjectId", "teacherId"],
    unassignTeacher: ["assignmentId"],
    linkGuardian: ["guardianId", "studentId", "kinship?null"],
    unlinkGuardian: ["guardianshipId"],
  } satisfies Record<TSchoolDataCommand["type"], readonly string[]>),
);

/** The flat form → the command's shape, unchecked (an unknown type has no fields: the schema refuses it). */
function schoolDataCommandOf(value: unknown): unknown {
  const form = typeof value === "object" && value !== null ? Object.fromEntries(Object.entries(value)) : {};
  const text = (name: string) => (typeof form[name] === "string" ? form[name].trim() : "");
  const type = text("type");
  const command: Record<string, unknown> = { type };
  const groups: Record<string, Record<string, unknown>> = {};
  for (const spec of SCHOOL_DATA_FORM_FIELDS.get(type) ?? []) {
    const [path = "", blank] = spec.split("?");
    const [group, name = group] = path.split(".");
    const cell = text(name!);
    if (cell === "" && blank === "") continue;
    const target = name === group ? command : (groups[group!] ??= {});
    target[name!] = cell === "" && blank === "null" ? null : cell;
  }
  return { ...command, ...groups };
}

/** A school-data form (its FormData as parseForm reads it) → its checked command. */
export const ZSchoolDataFormSchema = z.preprocess(schoolDataCommandOf, ZSchoolDataCommandSchema);

/** The institution-tree forms of /gestao. */
const ZInstitutionFieldsSchema = z.object({ parentId: ZFormText, name: ZFormText, kind: ZFormText });
export const ZCreateInstitutionFormSchema = z.preprocess((form) => ({ type: "create", ...ZInstitutionFieldsSchema.parse(form) }), ZInstitutionCommandSchema);
export const ZRenameInstitutionFormSchema = z.object({ name: ZFormText });
export const ZMoveInstitutionFormSchema = z.object({ parentId: ZFormText });

/** Where to go after a success, and which row a one-row form is about. */
export const ZFormTargetSchema = z.object({
  next: ZFormTrimmed,
  intent: ZFormTrimmed,
  placementId: ZFormTrimmed.transform((s) => s || undefined),
  applicationId: ZFormTrimmed,
  toolId: ZFormTrimmed,
});

export const ZEdtechLinkFormSchema = z.object({ edtechId: ZFormTrimmed, linked: ZFormTrimmed.transform((s) => s === "1") });

/** The placement form: its choices checked here, the rest by savePlacement (ZPlacementInputSchema). */
export const ZPlacementFormSchema = z.object({
  toolId: ZFormTrimmed,
  title: ZFormTrimmed,
  audience: z.preprocess((v) => (typeof v === "string" ? v.trim() : v), ZPlacementAudienceSchema),
  roles: zfd.repeatableOfType(ZRoleSchema),
  classId: ZFormTrimmed,
  customParams: ZFormText,
});

/** The sign-in card rules of an institution (saveCardSettings checks the ranges). */
export const ZCardSettingsFormSchema = z.object({
  cardNetworks: ZFormText,
  cardStudentsOnly: ZFormTrimmed.transform((s) => s !== "0"),
});

/** "Revogar crachá" on a class's student row. */
export const ZRevokeCardFormSchema = z.object({ profileId: ZFormTrimmed });
