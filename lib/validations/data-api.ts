// Data API boundary: the query of GET /manager/v1/data/{org_id} and /manager/v1/summary/{org_id},
// and the response shapes. The OpenAPI document (docs/api/data-api.openapi.json) is generated from
// these schemas by lib/server/data-api/openapi.ts, so a change here changes the contract.
import { z } from "zod";
import { decodeCursor } from "@/lib/data-api/cursor";

export const ENTITY_NAMES = ["usuario", "turma", "disciplinaProfessor", "turmaAluno", "responsavelAluno", "disciplina", "periodo"] as const;
export type TEntityName = (typeof ENTITY_NAMES)[number];

/**
 * Key order of `dados`: referenced records before the records that reference them, so a client
 * that walks the keys in order can apply inserts and updates of one page without dangling ids.
 */
export const DADOS_ORDER: readonly TEntityName[] = ["periodo", "disciplina", "turma", "usuario", "turmaAluno", "disciplinaProfessor", "responsavelAluno"];

export const EVENT_KINDS = ["insert", "update", "delete"] as const;
export type TEventKind = (typeof EVENT_KINDS)[number];

/** The personal attributes of `configuracao` (spec: Data API configuration object). */
export const PERSONAL_ATTRIBUTES = ["nome_usuario", "idade", "cpf", "email_usuario", "telefone"] as const;
export type TPersonalAttribute = (typeof PERSONAL_ATTRIBUTES)[number];

/** The roles a profile has (`perfil` of a `usuario` record); a sharing rule may differ per role. */
export const PROFILE_ROLES = ["aluno", "professor", "responsavel", "gestor"] as const;
export type TProfileRole = (typeof PROFILE_ROLES)[number];

export const DATA_API_DEFAULT_LIMIT = 1000;
export const DATA_API_MAX_LIMIT = 10000;

// ---------------------------------------------------------------- query

/** org_id: any 8-4-4-4-12 hex string (PostgreSQL's uuid), not only RFC 4122 variants. */
export const ZOrgIdSchema = z
  .guid({ message: "org_id deve ser um UUID" })
  .transform((s) => s.toLowerCase())
  .describe("Identificador (UUID) da instituição: uma escola ou uma rede.");

/** A wall-clock time in the hub's time zone; the service turns it into an instant. */
export interface TLocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

// `+` is the spec's separator; in a query string a literal `+` is decoded as a space, and `%2B`
// as `+`, so both arrive here and both are accepted.
const DATE_PATTERN = /^(\d{4})\/(\d{2})\/(\d{2})[+ ](\d{2}):(\d{2}):(\d{2})$/;
const DATE_FORMAT_MESSAGE = "use o formato AAAA/MM/DD+HH:MM:SS";

function ZHubDateTime(name: string, description: string) {
  return z
    .string()
    .regex(DATE_PATTERN, `${name}: ${DATE_FORMAT_MESSAGE}`)
    .transform((raw, ctx): TLocalDateTime => {
      const [, y, mo, d, h, mi, s] = DATE_PATTERN.exec(raw)!.map(Number) as [number, ...number[]];
      const t = { year: y!, month: mo!, day: d!, hour: h!, minute: mi!, second: s! };
      const check = new Date(Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second));
      const exists =
        t.year >= 1900 &&
        check.getUTCFullYear() === t.year &&
        check.getUTCMonth() === t.month - 1 &&
        check.getUTCDate() === t.day &&
        check.getUTCHours() === t.hour &&
        check.getUTCMinutes() === t.minute &&
        check.getUTCSeconds() === t.second;
      if (!exists) {
        ctx.addIssue({ code: "custom", message: `${name}: data ou hora inexistente` });
        return z.NEVER;
      }
      return t;
    })
    .meta({ description, example: "2026/03/01+08:00:00" });
}

function ZCommaList<T extends string>(name: string, allowed: readonly T[], description: string) {
  return z
    .string()
    .transform((raw, ctx): T[] | undefined => {
      const items = raw.split(",").map((s) => s.trim()).filter(Boolean);
      const unknown = items.filter((i) => !(allowed as readonly string[]).includes(i));
      if (unknown.length) {
        ctx.addIssue({ code: "custom", message: `${name}: valor desconhecido ${unknown.map((u) => `"${u}"`).join(", ")}; use ${allowed.join(", ")}` });
        return z.NEVER;
      }
      // Kept in the canonical order so equal filters compare (and log) equal.
      return items.length ? allowed.filter((a) => items.includes(a)) : undefined;
    })
    .meta({ description: `${description} Valores: ${allowed.join(", ")}.`, example: allowed.slice(0, 2).join(",") });
}

const ZFilterShape = {
  min_date: ZHubDateTime("min_date", "Data mais antiga das mudanças incluídas (inclusive), no fuso horário do hub."),
  max_date: ZHubDateTime("max_date", "Data mais recente das mudanças incluídas (inclusive, até o fim desse segundo), no fuso horário do hub."),
  event: ZCommaList("event", EVENT_KINDS, "Eventos a retornar, separados por vírgula. Omitido: todos."),
  only: ZCommaList("only", ENTITY_NAMES, "Retorna só estas entidades. Omitido: todas."),
  except: ZCommaList("except", ENTITY_NAMES, "Deixa estas entidades de fora. Omitido: nenhuma."),
};

/** The filters that narrow the data: on both endpoints (the summary counts what the data returns). */
const ZNarrowShape = {
  user_id: z
    .guid({ message: "user_id deve ser um UUID" })
    .transform((s) => s.toLowerCase())
    .meta({ description: "Só eventos que dizem respeito a este perfil (user_id): o seu `usuario` e os vínculos de que faz parte." }),
  code_term: z
    .string()
    .regex(/^[A-Za-z0-9._-]{1,32}$/, "code_term: código de período inválido")
    .meta({ description: "Restringe ao período (código, como 2026) as entidades que têm período: o período, suas turmas, matrículas e atribuições de professores. As que não têm período (usuario, disciplina, responsavelAluno) não são restringidas.", example: "2026" }),
};

const ZDataShape = {
  ...ZFilterShape,
  ...ZNarrowShape,
  limit: z
    .string()
    .regex(/^\d{1,6}$/, `limit: informe um inteiro de 1 a ${DATA_API_MAX_LIMIT}`)
    .transform(Number)
    .pipe(z.number().int().min(1, `limit: mínimo 1`).max(DATA_API_MAX_LIMIT, `limit: máximo ${DATA_API_MAX_LIMIT}`))
    .meta({ description: `Eventos por página (máximo ${DATA_API_MAX_LIMIT}). Sem \`limit\` e sem \`cursor\`, a resposta traz todos os eventos que atendem aos filtros, enviados em fluxo; com \`cursor\` e sem \`limit\`, páginas de ${DATA_API_DEFAULT_LIMIT}.`, example: "1000" }),
  cursor: z
    .string()
    .transform((raw, ctx) => {
      const position = decodeCursor(raw);
      if (!position) {
        ctx.addIssue({ code: "custom", message: "cursor: inválido; use um valor de paginacao.proximoCursor ou paginacao.cursorRetomada" });
        return z.NEVER;
      }
      return position;
    })
    .meta({ description: "Posição opaca devolvida em `paginacao.proximoCursor` (próxima página) ou `paginacao.cursorRetomada` (retomar mais tarde)." }),
};

function minNotAfterMax(q: { min_date?: TLocalDateTime; max_date?: TLocalDateTime }, ctx: z.RefinementCtx) {
  if (!q.min_date || !q.max_date) return;
  const key = (t: TLocalDateTime) => [t.year, t.month, t.day, t.hour, t.minute, t.second].map((n) => String(n).padStart(4, "0")).join("");
  if (key(q.min_date) > key(q.max_date)) {
    ctx.addIssue({ code: "custom", path: ["min_date"], message: "min_date é posterior a max_date" });
    ctx.addIssue({ code: "custom", path: ["max_date"], message: "max_date é anterior a min_date" });
  }
}

const optionalShape = <S extends Record<string, z.ZodType>>(shape: S) =>
  Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, v.optional()])) as { [K in keyof S]: z.ZodOptional<S[K]> };

/** Query of GET /manager/v1/data/{org_id}. Unknown parameters are ignored (stripped). */
export const ZDataQuerySchema = z.object(optionalShape(ZDataShape)).superRefine(minNotAfterMax);
export type TDataQuery = z.output<typeof ZDataQuerySchema>;

/** Query of GET /manager/v1/summary/{org_id}. */
export const ZSummaryQuerySchema = z.object(optionalShape({ ...ZFilterShape, ...ZNarrowShape })).superRefine(minNotAfterMax);
export type TSummaryQuery = z.output<typeof ZSummaryQuerySchema>;

/** The query parameters each endpoint reads, with their schema (for OpenAPI). */
export const DATA_QUERY_PARAMETERS = ZDataShape;
export const SUMMARY_QUERY_PARAMETERS = { ...ZFilterShape, ...ZNarrowShape };

const LIST_PARAMETERS = new Set(["event", "only", "except"]);

/**
 * URLSearchParams → the plain object the schemas parse. A repeated list parameter
 * (`event=insert&event=update`) is joined with commas; other repeated parameters keep the first
 * value; empty values count as not informed.
 */
export function queryInput(params: URLSearchParams, names: readonly string[]): Record<string, string> {
  const input: Record<string, string> = {};
  for (const name of names) {
    const values = params.getAll(name).filter((v) => v !== "");
    if (!values.length) continue;
    input[name] = LIST_PARAMETERS.has(name) ? values.join(",") : values[0]!;
  }
  return input;
}

/** Entities a request asks for: `only` (or all), minus `except`, in canonical order. */
export function requestedEntities(q: { only?: TEntityName[]; except?: TEntityName[] }): TEntityName[] {
  const only = q.only ?? ENTITY_NAMES;
  return ENTITY_NAMES.filter((e) => only.includes(e) && !q.except?.includes(e));
}

export function requestedKinds(q: { event?: TEventKind[] }): TEventKind[] {
  return q.event ?? [...EVENT_KINDS];
}

// ---------------------------------------------------------------- responses

const ZId = z.guid();
const ZDay = z.string().meta({ format: "date", description: "AAAA-MM-DD" });

const personal = (description: string) => z.string().nullable().optional().meta({ description });

export const ZUsuarioRecordSchema = z
  .object({
    id: ZId.describe("Perfil (user_id)."),
    pessoaId: ZId.describe("Pessoa (identidade do hub); a mesma pessoa pode ter vários perfis."),
    instituicaoId: ZId,
    perfil: z.enum(PROFILE_ROLES),
    nome_usuario: personal("Nome completo. Ausente se não permitido; pseudônimo \"Usuário <8 hex>\" se anonimizado."),
    idade: personal("Data de nascimento AAAA-MM-DD. Ausente se não permitido; pseudônimo \"anon:<16 hex>\" se anonimizado."),
    cpf: personal("CPF, 11 dígitos. Ausente se não permitido; pseudônimo \"anon:<16 hex>\" se anonimizado."),
    email_usuario: personal("E-mail. Ausente se não permitido; pseudônimo \"u<16 hex>@anonimo.invalid\" se anonimizado."),
    telefone: personal("Celular com DDD. Ausente se não permitido; pseudônimo \"anon:<16 hex>\" se anonimizado."),
  });

export const ZTurmaRecordSchema = z
  .object({ id: ZId, instituicaoId: ZId, periodoId: ZId, codigoPeriodo: z.string(), nome: z.string(), serie: z.string().nullable(), turno: z.string().nullable() });

export const ZDisciplinaProfessorRecordSchema = z
  .object({ id: ZId, turmaId: ZId, disciplinaId: ZId, professorId: ZId.describe("Perfil do professor."), codigoPeriodo: z.string() });

export const ZTurmaAlunoRecordSchema = z
  .object({ id: ZId, turmaId: ZId, alunoId: ZId.describe("Perfil do aluno."), codigoPeriodo: z.string() });

export const ZResponsavelAlunoRecordSchema = z
  .object({ id: ZId, responsavelId: ZId, alunoId: ZId, parentesco: z.string().nullable() });

export const ZDisciplinaRecordSchema = z
  .object({ id: ZId, instituicaoId: ZId, nome: z.string(), codigo: z.string().nullable() });

export const ZPeriodoRecordSchema = z
  .object({ id: ZId, instituicaoId: ZId, codigo: z.string(), nome: z.string(), inicio: ZDay, fim: ZDay });

const RECORD_SCHEMAS = {
  usuario: ZUsuarioRecordSchema,
  turma: ZTurmaRecordSchema,
  disciplinaProfessor: ZDisciplinaProfessorRecordSchema,
  turmaAluno: ZTurmaAlunoRecordSchema,
  responsavelAluno: ZResponsavelAlunoRecordSchema,
  disciplina: ZDisciplinaRecordSchema,
  periodo: ZPeriodoRecordSchema,
} satisfies Record<TEntityName, z.ZodType>;

/**
 * The entities whose records can carry personal attributes (read from the record schemas above,
 * which the OpenAPI document publishes): only their records go through the privacy rules.
 */
export const ENTITIES_WITH_PERSONAL_ATTRIBUTES: ReadonlySet<TEntityName> = new Set(
  ENTITY_NAMES.filter((entity) => PERSONAL_ATTRIBUTES.some((attribute) => attribute in RECORD_SCHEMAS[entity].shape)),
);

function ZEvent<R extends z.ZodType>(record: R) {
  return z.object({
    id: ZId.describe("Identificador do evento."),
    evento: z.enum(EVENT_KINDS),
    ocorridoEm: z.string().meta({ format: "date-time", description: "ISO 8601 com o deslocamento do fuso do hub.", examples: ["2026-03-01T08:00:00.000-03:00"] }),
    registro: record.describe("Estado do registro após o evento, com os valores pessoais atuais (nunca valores antigos); num delete, o último estado, sem atributos pessoais."),
  });
}

const ZAttributeSetSchema = z.object({
  atributosPermitidos: z.array(z.enum(PERSONAL_ATTRIBUTES)).describe("Atributos pessoais que a instituição permite para esta aplicação."),
  atributosAnonimizados: z.array(z.enum(PERSONAL_ATTRIBUTES)).describe("Dentre os permitidos, os que chegam anonimizados. Pode ser vazio."),
});

export const ZConfiguracaoSchema = z
  .object({
    conjuntoDadosUsuario: z.object({
      atributosPermitidos: z
        .array(z.enum(PERSONAL_ATTRIBUTES))
        .describe("Atributos pessoais que podem aparecer nos registros: os que a instituição permite para esta aplicação (para algum perfil, se as regras diferem por perfil)."),
      atributosAnonimizados: z
        .array(z.enum(PERSONAL_ATTRIBUTES))
        .describe("Dentre os permitidos, os que chegam anonimizados (para algum perfil, se as regras diferem por perfil). Pode ser vazio."),
      porPerfil: z
        .object(Object.fromEntries(PROFILE_ROLES.map((role) => [role, ZAttributeSetSchema])) as Record<TProfileRole, typeof ZAttributeSetSchema>)
        .optional()
        .describe("Presente só quando a regra difere por perfil: a regra de cada perfil. Cada registro `usuario` segue a regra do seu `perfil`."),
    }),
  });
export type TConfiguracao = z.output<typeof ZConfiguracaoSchema>;

export const ZDataResponseSchema = z
  .object({
    configuracao: ZConfiguracaoSchema,
    dados: z
      .object({
        usuario: z.array(ZEvent(RECORD_SCHEMAS.usuario)).optional(),
        turma: z.array(ZEvent(RECORD_SCHEMAS.turma)).optional(),
        disciplinaProfessor: z.array(ZEvent(RECORD_SCHEMAS.disciplinaProfessor)).optional(),
        turmaAluno: z.array(ZEvent(RECORD_SCHEMAS.turmaAluno)).optional(),
        responsavelAluno: z.array(ZEvent(RECORD_SCHEMAS.responsavelAluno)).optional(),
        disciplina: z.array(ZEvent(RECORD_SCHEMAS.disciplina)).optional(),
        periodo: z.array(ZEvent(RECORD_SCHEMAS.periodo)).optional(),
      } satisfies Record<TEntityName, z.ZodType>)
      .describe("Eventos da página agrupados por entidade; só as entidades pedidas aparecem (com lista vazia se não houver eventos)."),
    paginacao: z.object({
      limite: z.number().int().nullable().describe("Eventos por página; null quando o pedido não tinha `limit` nem `cursor` e a resposta traz todos os eventos."),
      proximoCursor: z.string().nullable().describe("Cursor da próxima página; null quando não há mais eventos agora."),
      cursorRetomada: z.string().describe("Posição depois de tudo o que esta leitura examinou: guarde e use como `cursor` para receber, mais tarde, só eventos novos."),
    }),
  });
export type TDataResponseSchema = z.output<typeof ZDataResponseSchema>;

const ZKindCounts = z
  .object(Object.fromEntries(EVENT_KINDS.map((k) => [k, z.number().int().min(0).optional()])) as Record<TEventKind, z.ZodOptional<z.ZodNumber>>)
  .describe("Contagem por evento; só os eventos pedidos aparecem.");

const ZCounts = z
  .object(Object.fromEntries(ENTITY_NAMES.map((e) => [e, ZKindCounts.optional()])) as Record<TEntityName, z.ZodOptional<typeof ZKindCounts>>)
  .describe("Por entidade pedida, contagem por evento.");

export const ZSummaryNodeSchema = z
  .object({
    instituicao: z.object({ id: ZId, nome: z.string(), tipo: z.enum(["network", "school"]) }),
    contagens: ZCounts.describe("Eventos da própria instituição."),
    total: ZCounts.describe("Eventos da instituição e de todas as suas descendentes."),
    get filhos(): z.ZodArray<typeof ZSummaryNodeSchema> {
      return z.array(ZSummaryNodeSchema);
    },
  });

export const ZErrorSchema = z
  .object({
    message: z.string().describe("Mensagem legível; \"Unauthorized\" nos 401."),
    fields: z.record(z.string(), z.string()).optional().describe("Nos 400: parâmetro → problema."),
  });
