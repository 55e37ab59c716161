import { describe, expect, it } from "vitest";
import { DADOS_ORDER, ENTITIES_WITH_PERSONAL_ATTRIBUTES, ENTITY_NAMES, ZDataResponseSchema, type TEntityName } from "@/lib/validations/data-api";
import type { TEventRow } from "./query-events";
import { writeDataPage, type TDataResponse } from "./read-data-page";
import { formatInZone } from "./time-zone";

const ZONE = "America/Sao_Paulo";
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

// Records as PostgreSQL writes jsonb text (", " and ": " separators), one of each entity.
const RECORDS: Record<TEntityName, string> = {
  usuario: `{"id": "${uuid(1)}", "cpf": "52998224725", "idade": "2012-03-04", "perfil": "aluno", "pessoaId": "${uuid(2)}", "nome_usuario": "Ana \\"Bia\\" Souza", "instituicaoId": "${uuid(3)}"}`,
  turma: `{"id": "${uuid(4)}", "nome": "5º A", "serie": null, "turno": "manhã", "periodoId": "${uuid(5)}", "codigoPeriodo": "2026", "instituicaoId": "${uuid(3)}"}`,
  disciplinaProfessor: `{"id": "${uuid(6)}", "turmaId": "${uuid(4)}", "disciplinaId": "${uuid(7)}", "professorId": "${uuid(8)}", "codigoPeriodo": "2026"}`,
  turmaAluno: `{"id": "${uuid(9)}", "alunoId": "${uuid(1)}", "turmaId": "${uuid(4)}", "codigoPeriodo": "2026"}`,
  responsavelAluno: `{"id": "${uuid(10)}", "alunoId": "${uuid(1)}", "parentesco": "mãe", "responsavelId": "${uuid(11)}"}`,
  disciplina: `{"id": "${uuid(7)}", "nome": "Matemática", "codigo": null, "instituicaoId": "${uuid(3)}"}`,
  periodo: `{"id": "${uuid(5)}", "fim": "2026-12-11", "nome": "Ano letivo 2026", "codigo": "2026", "inicio": "2026-02-02", "instituicaoId": "${uuid(3)}"}`,
};

// Two events of each entity, interleaved in (txid, seq) order as a page comes from the database.
const rows: TEventRow[] = [...ENTITY_NAMES, ...ENTITY_NAMES].map((entity, i) => ({
  id: uuid(100 + i),
  entity,
  kind: i < ENTITY_NAMES.length ? "insert" : "update",
  record: RECORDS[entity],
  occurredAtMs: Date.UTC(2026, 10, 22, 12, 0, 0) + i * 1001.25,
  txid: String(1000 + i),
  seq: "1",
}));

const configuracao: TDataResponse["configuracao"] = { conjuntoDadosUsuario: { atributosPermitidos: ["nome_usuario"], atributosAnonimizados: [] } };
const paginacao: TDataResponse["paginacao"] = { limite: 1000, proximoCursor: null, cursorRetomada: "abc" };

describe("writeDataPage", () => {
  it("writes the same document as building it from objects: events grouped by entity in DADOS_ORDER, each in page order", () => {
    const page = writeDataPage({ rows, entities: ENTITY_NAMES, timeZone: ZONE, registro: (json) => json, configuracao, paginacao });
    const dados: Record<string, unknown[]> = {};
    for (const entity of DADOS_ORDER) {
      dados[entity] = rows
        .filter((r) => r.entity === entity)
        .map((r) => ({ id: r.id, evento: r.kind, ocorridoEm: formatInZone(r.occurredAtMs, ZONE), registro: JSON.parse(r.record) }));
    }
    const text = page.bytes.toString("utf8");
    expect(text).toBe(page.text);
    expect(Object.keys(JSON.parse(text).dados)).toEqual([...DADOS_ORDER]);
    expect(JSON.parse(text)).toEqual({ configuracao, dados, paginacao });
    expect(ZDataResponseSchema.safeParse(page.parse()).success).toBe(true);
  });

  it("encodes non-ASCII text as UTF-8", () => {
    const page = writeDataPage({ rows: rows.filter((r) => r.entity === "disciplina"), entities: ["disciplina"], timeZone: ZONE, registro: (json) => json, configuracao, paginacao });
    expect(page.bytes.includes(Buffer.from("Matemática", "utf8"))).toBe(true);
    expect(page.parse().dados.disciplina?.[0]?.registro).toMatchObject({ nome: "Matemática" });
  });

  it("passes to the privacy filter exactly the records of entities that have personal attributes", () => {
    const seen: string[] = [];
    const page = writeDataPage({
      rows,
      entities: ENTITY_NAMES,
      timeZone: ZONE,
      registro: (json) => (seen.push(json), "{}"),
      configuracao,
      paginacao,
    });
    expect([...ENTITIES_WITH_PERSONAL_ATTRIBUTES]).toEqual(["usuario"]);
    expect(seen).toEqual([RECORDS.usuario, RECORDS.usuario]);
    expect(page.parse().dados.usuario?.map((e) => e.registro)).toEqual([{}, {}]);
    expect(page.parse().dados.turma?.[0]?.registro).toMatchObject({ nome: "5º A" });
  });

  it("lists every requested entity, empty ones as [], and no other", () => {
    const page = writeDataPage({ rows: [], entities: ["turmaAluno", "usuario"], timeZone: ZONE, registro: (json) => json, configuracao, paginacao });
    expect(page.parse()).toEqual({ configuracao, dados: { usuario: [], turmaAluno: [] }, paginacao });
  });

  it("writes pages larger than one Buffer (100 events) with every comma and bracket in place", () => {
    // 250 usuario (three Buffers), exactly 100 turmaAluno (one, full), one turma.
    const many = (entity: TEntityName, n: number, from: number): TEventRow[] =>
      Array.from({ length: n }, (_, i) => ({ ...rows[0]!, id: uuid(1000 + from + i), entity, record: RECORDS[entity], txid: String(5000 + from + i) }));
    const big = [...many("usuario", 250, 0), ...many("turmaAluno", 100, 250), ...many("turma", 1, 350)];
    const page = writeDataPage({ rows: big, entities: ENTITY_NAMES, timeZone: ZONE, registro: (json) => json, configuracao, paginacao });
    const body = page.parse();
    expect(body.dados.usuario?.map((e) => e.id)).toEqual(big.slice(0, 250).map((r) => r.id));
    expect(body.dados.turmaAluno?.map((e) => e.id)).toEqual(big.slice(250, 350).map((r) => r.id));
    expect(body.dados.turma).toHaveLength(1);
    expect(body.paginacao).toEqual(paginacao);
  });

  it("writes a page of no entity", () => {
    const page = writeDataPage({ rows: [], entities: [], timeZone: ZONE, registro: (json) => json, configuracao, paginacao });
    expect(page.parse()).toEqual({ configuracao, dados: {}, paginacao });
  });
});
