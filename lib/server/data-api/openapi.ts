// Builds the OpenAPI 3.1 document of the Data API from the zod schemas of
// lib/validations/data-api.ts, so the published contract cannot drift from the validation.
// Regenerate the committed copy with:  npx tsx lib/server/data-api/openapi.ts
// (openapi.test.ts fails when docs/api/data-api.openapi.json is out of date).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import {
  DATA_QUERY_PARAMETERS,
  SUMMARY_QUERY_PARAMETERS,
  ZConfiguracaoSchema,
  ZDataResponseSchema,
  ZDisciplinaProfessorRecordSchema,
  ZDisciplinaRecordSchema,
  ZErrorSchema,
  ZOrgIdSchema,
  ZPeriodoRecordSchema,
  ZResponsavelAlunoRecordSchema,
  ZSummaryNodeSchema,
  ZTurmaAlunoRecordSchema,
  ZTurmaRecordSchema,
  ZUsuarioRecordSchema,
} from "@/lib/validations/data-api";

export const OPENAPI_PATH = "docs/api/data-api.openapi.json";

type JsonObject = Record<string, unknown>;

function strip(schema: JsonObject): JsonObject {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

function parameter(name: string, where: "query" | "path", schema: z.ZodType, required: boolean): JsonObject {
  const { description, example, ...json } = strip(z.toJSONSchema(schema, { io: "input" }) as JsonObject) as JsonObject & {
    description?: string;
    example?: unknown;
  };
  return {
    name,
    in: where,
    required,
    ...(description ? { description } : {}),
    schema: json,
    ...(example !== undefined ? { example } : {}),
  };
}

function componentSchemas(): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  const named: [string, z.ZodType][] = [
    ["DataResponse", ZDataResponseSchema],
    ["Configuracao", ZConfiguracaoSchema],
    ["Usuario", ZUsuarioRecordSchema],
    ["Turma", ZTurmaRecordSchema],
    ["DisciplinaProfessor", ZDisciplinaProfessorRecordSchema],
    ["TurmaAluno", ZTurmaAlunoRecordSchema],
    ["ResponsavelAluno", ZResponsavelAlunoRecordSchema],
    ["Disciplina", ZDisciplinaRecordSchema],
    ["Periodo", ZPeriodoRecordSchema],
    ["SummaryNode", ZSummaryNodeSchema],
    ["Error", ZErrorSchema],
  ];
  for (const [id, schema] of named) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { uri: (id) => `#/components/schemas/${id}` }) as { schemas: Record<string, JsonObject> };
  return Object.fromEntries(named.map(([id]) => [id, strip(schemas[id]!)]));
}

const json = (ref: string) => ({ "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } });

const ERRORS = {
  "400": { description: "org_id ausente ou não é um UUID, ou um parâmetro de consulta inválido (nomeado em `message` e `fields`).", content: json("Error") },
  "401": { description: "x-api-key ausente, inválida ou revogada; ou a edtech não tem vínculo com a instituição nem com uma superior. Corpo: `{\"message\":\"Unauthorized\"}`.", content: json("Error") },
  "403": { description: "Há vínculo, mas a aplicação não tem relação (acesso) com a instituição nem com uma superior.", content: json("Error") },
  "404": { description: "Não existe instituição com esse org_id.", content: json("Error") },
};

function operation(options: { id: string; summary: string; description: string; query: Record<string, z.ZodType>; ok: JsonObject }): JsonObject {
  return {
    operationId: options.id,
    summary: options.summary,
    description: options.description,
    parameters: [
      parameter("org_id", "path", ZOrgIdSchema, true),
      ...Object.entries(options.query).map(([name, schema]) => parameter(name, "query", schema, false)),
    ],
    responses: { "200": options.ok, ...ERRORS },
  };
}

export function buildDataApiOpenApi(): JsonObject {
  return {
    openapi: "3.1.0",
    info: {
      title: "Hub — Data API",
      version: "1",
      description:
        "Mudanças dos dados escolares de uma instituição (e das suas descendentes) como eventos, com as regras de privacidade da instituição, paginação sem lacunas e um resumo em árvore. Guia: docs/data-api.md.",
    },
    servers: [{ url: "{base_url}", variables: { base_url: { default: "http://localhost:3000", description: "Endereço do hub (produção ou QA; os caminhos são os mesmos)." } } }],
    security: [{ apiKey: [] }],
    paths: {
      "/manager/v1/data/{org_id}": {
        get: operation({
          id: "getData",
          summary: "Eventos de dados escolares",
          description:
            "Uma página de eventos (insert, update, delete) da instituição e das suas descendentes, na ordem da API, agrupados por entidade. Ordem das verificações: chave (401), org_id (400), instituição (404), vínculo (401), acesso (403), parâmetros (400).",
          query: DATA_QUERY_PARAMETERS,
          ok: { description: "Uma página de eventos.", content: json("DataResponse") },
        }),
      },
      "/manager/v1/summary/{org_id}": {
        get: operation({
          id: "getSummary",
          summary: "Resumo de eventos por instituição",
          description: "Contagens por entidade e evento da instituição e de cada descendente, em árvore, com totais que incluem as descendentes.",
          query: SUMMARY_QUERY_PARAMETERS,
          ok: { description: "A árvore de contagens.", content: json("SummaryNode") },
        }),
      },
    },
    components: {
      securitySchemes: { apiKey: { type: "apiKey", in: "header", name: "x-api-key", description: "Chave da aplicação, criada na área do desenvolvedor." } },
      schemas: componentSchemas(),
    },
  };
}

export function renderDataApiOpenApi(): string {
  return `${JSON.stringify(buildDataApiOpenApi(), null, 2)}\n`;
}

// Run directly (npx tsx lib/server/data-api/openapi.ts) to rewrite the committed document.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  writeFileSync(path.resolve(OPENAPI_PATH), renderDataApiOpenApi());
  console.log(`wrote ${OPENAPI_PATH}`);
}
