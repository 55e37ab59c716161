// CSV import: the whole file is checked first; a file with any bad row writes nothing and lists
// every bad row with its reasons; a good file is written in one transaction with exactly the
// events the one-by-one services would emit.
import { beforeAll, describe, expect, it } from "vitest";
import { setupTestDatabase } from "@/test/database";
import { runImport } from "./run-import";
import { createManagementFixture, type TManagementFixture } from "@/test/fixtures/management";
import type { TImportProgress } from "./validate-import";

const t = setupTestDatabase();
let f: TManagementFixture;

beforeAll(async () => {
  f = await createManagementFixture();
});

const counts = async () => ({
  persons: await t.db.prisma.person.count(),
  profiles: await t.db.prisma.profile.count(),
  enrollments: await t.db.prisma.classStudent.count(),
  events: await t.db.prisma.changeEvent.count(),
});

/** A valid CPF for n (check digits computed), so generated files pass the CPF rule. */
function cpf(n: number): string {
  const base = String(100_000_000 + n).slice(-9);
  const digit = (s: string) => {
    let sum = 0;
    for (let i = 0; i < s.length; i++) sum += Number(s[i]) * (s.length + 1 - i);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  const d1 = digit(base);
  return `${base}${d1}${digit(`${base}${d1}`)}`;
}

describe("a file with bad rows", () => {
  it("imports nothing and lists each bad row with every reason", async () => {
    const before = await counts();
    const csv = [
      "Nome;Perfil;CPF;E-mail;Telefone;Data de nascimento;Turma;Período",
      "Ana Boa;aluno;529.982.247-25;ana.boa@teste.br;(11) 98888-1111;21/03/2014;7º A;2026",
      "B;aluno;111.111.111-11;nao-e-email;12;31/02/2014;;",
      "Carla Certa;professora;;;;;;",
      "Davi Duplo;aluno;52998224725;;;;;",
      "Eva Sem Turma;aluno;;;;;9º Z;2026",
      "Fábio Prof;professor;;;;;7º A;2026",
      "Gil Existente;responsavel;;aluno1.x@teste.br;;;;",
      "Helena Boa;responsável;;helena@teste.br;;;;",
    ].join("\n");
    const existing = await t.db.prisma.person.findUniqueOrThrow({ where: { id: f.school1.studentPersonId } });
    const result = await runImport({ scope: f.manager1, institutionId: f.school1.id, kind: "pessoas", csv: csv.replace("aluno1.x@teste.br", existing.email!) });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.fileErrors).toEqual([]);
    expect(result.rowErrors).toEqual([
      { line: 3, messages: ["Nome: ao menos 2 letras", "CPF inválido", "E-mail inválido", "Telefone inválido (use DDD e número)", "Data inexistente"] },
      { line: 4, messages: ["Perfil: use aluno, professor, responsavel ou gestor"] },
      { line: 5, messages: ["CPF repetido no arquivo (também na linha 2)"] },
      { line: 6, messages: ['Turma "9º Z" não encontrada no período 2026'] },
      { line: 7, messages: ["Turma: só alunos são matriculados pela importação de pessoas"] },
      { line: 8, messages: ["E-mail já cadastrado no Hub"] },
    ]);
    expect(await counts()).toEqual(before);
  });

  it("reports header problems before reading rows", async () => {
    const result = await runImport({ scope: f.manager1, institutionId: f.school1.id, kind: "turmas", csv: "periodo;turma;cor\n2026;7º C;azul" });
    expect(result).toEqual({
      ok: false,
      total: 1,
      fileErrors: ["Colunas desconhecidas: turma, cor. Colunas aceitas: periodo, nome, serie, turno.", "Faltam colunas obrigatórias: nome."],
      rowErrors: [],
    });
  });

  it("a dry run validates without writing", async () => {
    const before = await counts();
    expect(await runImport({ scope: f.manager1, institutionId: f.school1.id, kind: "disciplinas", csv: "nome;codigo\nRobótica;ROB", dryRun: true })).toEqual({ ok: true, total: 1, imported: 0 });
    expect(await counts()).toEqual(before);
  });
});

describe("each kind of file", () => {
  it("periods, subjects, classes, people, enrollments, teachers and guardians import with their events", async () => {
    const scope = f.manager1;
    const institutionId = f.school1.id;
    const run = async (kind: Parameters<typeof runImport>[0]["kind"], csv: string) => {
      const before = await t.db.prisma.changeEvent.count();
      const result = await runImport({ scope, institutionId, kind, csv });
      expect(result).toMatchObject({ ok: true });
      const written = await t.db.prisma.changeEvent.findMany({ orderBy: { seq: "asc" }, skip: before });
      return written.map((e) => `${e.entity}.${e.kind}`);
    };
    expect(await run("periodos", "codigo,nome,inicio,fim\n2027,Ano letivo 2027,01/02/2027,2027-12-10")).toEqual(["periodo.insert"]);
    expect(await run("disciplinas", "nome;codigo\nRobótica;ROB\nFilosofia;")).toEqual(["disciplina.insert", "disciplina.insert"]);
    expect(await run("turmas", "periodo;nome;serie;turno\n2027;1º A;1º ano;Manhã")).toEqual(["turma.insert"]);
    expect(
      await run("pessoas", "nome;perfil;cpf;email\nLia Nova;aluno;;lia@teste.br\nProf Rui;professor;;rui@teste.br\nMãe da Lia;responsavel;;mae.lia@teste.br"),
    ).toEqual(["usuario.insert", "usuario.insert", "usuario.insert"]);
    expect(await run("matriculas", "periodo;turma;aluno\n2027;1º A;lia@teste.br")).toEqual(["turmaAluno.insert"]);
    expect(await run("professores", "periodo;turma;disciplina;professor\n2027;1º A;robótica;RUI@teste.br")).toEqual(["disciplinaProfessor.insert"]);
    expect(await run("responsaveis", "responsavel;aluno;parentesco\nmae.lia@teste.br;lia@teste.br;mãe")).toEqual(["responsavelAluno.insert"]);
    // Importing the same links again is refused row by row, not written twice.
    const again = await runImport({ scope, institutionId, kind: "matriculas", csv: "periodo;turma;aluno\n2027;1º A;lia@teste.br\n2027;1º A;ninguem@teste.br" });
    expect(again).toMatchObject({
      ok: false,
      rowErrors: [
        { line: 2, messages: ["O aluno já está matriculado nesta turma"] },
        { line: 3, messages: ["Aluno(a) não encontrado(a) nesta escola: ninguem@teste.br"] },
      ],
    });
  });
});

describe("a good file of 10,000 rows", () => {
  it("imports fully in one transaction: 10,000 persons, profiles and enrollments and exactly 20,000 events", async () => {
    const header = "nome;perfil;cpf;email;telefone;nascimento;turma;periodo";
    const lines = Array.from({ length: 10_000 }, (_, i) => `Aluno Lote ${i};aluno;${cpf(500_000 + i)};lote${i}@teste.br;1198${String(1_000_000 + i).slice(-7)};2014-01-15;7º A;2026`);
    const before = await counts();
    const lastSeq = (await t.db.prisma.changeEvent.aggregate({ _max: { seq: true } }))._max.seq ?? BigInt(0);
    const progress: TImportProgress[] = [];
    const started = Date.now();
    const result = await runImport({ scope: f.manager2, institutionId: f.school2.id, kind: "pessoas", csv: [header, ...lines].join("\r\n"), onProgress: (p) => progress.push(p) });
    const elapsed = Date.now() - started;
    expect(result).toEqual({ ok: true, total: 10_000, imported: 10_000 });
    const after = await counts();
    expect(after.persons - before.persons).toBe(10_000);
    expect(after.profiles - before.profiles).toBe(10_000);
    expect(after.enrollments - before.enrollments).toBe(10_000);
    expect(after.events - before.events).toBe(20_000);
    const written = await t.db.prisma.changeEvent.groupBy({ by: ["institutionId", "entity", "kind"], where: { seq: { gt: lastSeq } }, _count: true, orderBy: { entity: "asc" } });
    expect(written.map((g) => [g.institutionId, g.entity, g.kind, g._count])).toEqual([
      [f.school2.id, "usuario", "insert", 10_000],
      [f.school2.id, "turmaAluno", "insert", 10_000],
    ]);
    // Progress went through both phases and ended at the total.
    expect(progress.some((p) => p.phase === "validando")).toBe(true);
    expect(progress.filter((p) => p.phase === "importando").map((p) => p.done)).toEqual([0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10_000]);
    console.info(`10,000-row import: ${elapsed} ms`);
  }, 120_000);
});
