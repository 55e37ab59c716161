import { db } from "@/lib/db";
import type { Role } from "@/lib/generated/prisma/client";
import {
  IMPORT_COLUMNS,
  IMPORT_MAX_ROWS,
  IMPORT_ROW_SCHEMAS,
  ZImportRequestSchema,
  normalizeHeader,
  type TImportKind,
  type TImportRowOf,
} from "@/lib/validations/management";
import { parseCsv } from "./parse-csv";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";

type Line = { line: number };

/** What an import will write, every reference already resolved to an id of this institution. */
export type TImportPlan =
  | { kind: "pessoas"; items: (Line & { role: Role; classId?: string; person: { name: string; cpf?: string; email?: string; phone?: string; birthDate?: string } })[] }
  | { kind: "periodos"; items: (Line & { code: string; name: string; startsOn: string; endsOn: string })[] }
  | { kind: "disciplinas"; items: (Line & { name: string; code?: string })[] }
  | { kind: "turmas"; items: (Line & { periodId: string; name: string; grade?: string; shift?: "manha" | "tarde" | "noite" | "integral" })[] }
  | { kind: "matriculas"; items: (Line & { classId: string; studentId: string })[] }
  | { kind: "professores"; items: (Line & { classId: string; subjectId: string; teacherId: string })[] }
  | { kind: "responsaveis"; items: (Line & { guardianId: string; studentId: string; kinship?: string })[] };

export interface TRowError {
  line: number;
  messages: string[];
}

export type TImportValidation =
  | { ok: true; total: number; plan: TImportPlan }
  | { ok: false; total: number; fileErrors: string[]; rowErrors: TRowError[] };

export interface TImportProgress {
  phase: "validando" | "importando";
  done: number;
  total: number;
}

const CHUNK = 1000;
const chunks = <T>(list: T[], size = CHUNK): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));
const fold = (s: string) => s.normalize("NFC").trim().toLowerCase();

type TPersonRef = { cpf: string } | { email: string };
const refKey = (r: TPersonRef) => ("cpf" in r ? `cpf:${r.cpf}` : `email:${r.email}`);
const refLabel = (r: TPersonRef) => ("cpf" in r ? `CPF ${r.cpf}` : r.email);

/**
 * Reads and checks a whole import file before anything is written: the header, every row's cells
 * (with the school-data rules), duplicates inside the file, and every reference and uniqueness
 * rule against the database. Either every row is importable (the plan), or each bad row is listed
 * with all its reasons.
 */
export async function validateImport(options: {
  scope: TManagerScope;
  institutionId: string;
  kind: TImportKind;
  csv: string;
  onProgress?: (progress: TImportProgress) => void;
}): Promise<TImportValidation> {
  const institution = requireInReach(options);
  const request = ZImportRequestSchema.safeParse({ kind: options.kind, csv: options.csv });
  if (!request.success) return { ok: false, total: 0, fileErrors: request.error.issues.map((i) => i.message), rowErrors: [] };
  const { kind } = request.data;
  const parsed = parseCsv(request.data.csv);
  if (!parsed.ok) return { ok: false, total: 0, fileErrors: [parsed.message], rowErrors: [] };

  // Header → column of each cell.
  const columns = IMPORT_COLUMNS[kind];
  const byKey = new Map(columns.flatMap((c) => [c.name, ...(c.aliases ?? [])].map((h) => [normalizeHeader(h), c.name] as const)));
  const fileErrors: string[] = [];
  const mapped = parsed.header.map((h) => byKey.get(normalizeHeader(h)));
  const unknown = parsed.header.filter((h, i) => h && !mapped[i]);
  if (unknown.length) fileErrors.push(`Colunas desconhecidas: ${unknown.join(", ")}. Colunas aceitas: ${columns.map((c) => c.name).join(", ")}.`);
  const missing = columns.filter((c) => c.required && !mapped.includes(c.name)).map((c) => c.name);
  if (missing.length) fileErrors.push(`Faltam colunas obrigatórias: ${missing.join(", ")}.`);
  const repeated = columns.filter((c) => mapped.filter((m) => m === c.name).length > 1).map((c) => c.name);
  if (repeated.length) fileErrors.push(`Colunas repetidas: ${repeated.join(", ")}.`);
  if (parsed.rows.length === 0) fileErrors.push("O arquivo não tem linhas além do cabeçalho.");
  if (parsed.rows.length > IMPORT_MAX_ROWS) fileErrors.push(`O arquivo tem ${parsed.rows.length} linhas; o máximo por importação é ${IMPORT_MAX_ROWS}. Divida o arquivo.`);
  const total = parsed.rows.length;
  if (fileErrors.length) return { ok: false, total, fileErrors, rowErrors: [] };

  // Cells of each row.
  const errors = new Map<number, string[]>();
  const fail = (line: number, message: string) => errors.set(line, [...(errors.get(line) ?? []), message]);
  const schema = IMPORT_ROW_SCHEMAS[kind];
  const rows: (Line & { data: TImportRowOf<typeof kind> })[] = [];
  for (const [index, row] of parsed.rows.entries()) {
    if (row.values.length > parsed.header.length && row.values.slice(parsed.header.length).some((v) => v !== "")) {
      fail(row.line, `A linha tem ${row.values.length} colunas e o cabeçalho ${parsed.header.length}`);
      continue;
    }
    const cells: Record<string, string> = {};
    mapped.forEach((name, i) => {
      if (name) cells[name] = row.values[i] ?? "";
    });
    const result = schema.safeParse(cells);
    if (result.success) rows.push({ line: row.line, data: result.data });
    else for (const issue of result.error.issues) fail(row.line, issue.message);
    if ((index + 1) % CHUNK === 0) options.onProgress?.({ phase: "validando", done: index + 1, total });
  }

  const plan = await checkAgainstDatabase({ kind, rows, institutionId: institution.id, fail });
  options.onProgress?.({ phase: "validando", done: total, total });
  if (errors.size) {
    const rowErrors = [...errors.entries()].sort((a, b) => a[0] - b[0]).map(([line, messages]) => ({ line, messages }));
    return { ok: false, total, fileErrors: [], rowErrors };
  }
  return { ok: true, total, plan };
}

/** Duplicates inside the file and every rule that needs the database, per kind. */
async function checkAgainstDatabase(options: {
  kind: TImportKind;
  rows: (Line & { data: TImportRowOf<TImportKind> })[];
  institutionId: string;
  fail: (line: number, message: string) => void;
}): Promise<TImportPlan> {
  const { institutionId, fail } = options;
  const rowsOf = <K extends TImportKind>(_kind: K) => options.rows as (Line & { data: TImportRowOf<K> })[];
  const seen = new Map<string, number>();
  const once = (key: string, line: number, message: (first: number) => string) => {
    const first = seen.get(key);
    if (first !== undefined) {
      fail(line, message(first));
      return false;
    }
    seen.set(key, line);
    return true;
  };

  const classKey = (code: string, name: string) => `${code}\0${fold(name)}`;
  const loadClasses = async () => {
    const classes = await db().class.findMany({ where: { institutionId }, select: { id: true, name: true, period: { select: { code: true } } } });
    return new Map(classes.map((c) => [classKey(c.period.code, c.name), c.id]));
  };
  /** cpf/e-mail → profile id, for profiles of one role at this institution. */
  const resolveProfiles = async (role: Role, refs: TPersonRef[]) => {
    const cpfs = [...new Set(refs.flatMap((r) => ("cpf" in r ? [r.cpf] : [])))];
    const emails = [...new Set(refs.flatMap((r) => ("email" in r ? [r.email] : [])))];
    const found = new Map<string, string>();
    for (const part of [...chunks(cpfs).map((c) => ({ cpf: { in: c } })), ...chunks(emails).map((e) => ({ email: { in: e } }))]) {
      const profiles = await db().profile.findMany({ where: { institutionId, role, person: part }, select: { id: true, person: { select: { cpf: true, email: true } } } });
      for (const p of profiles) {
        if (p.person.cpf) found.set(`cpf:${p.person.cpf}`, p.id);
        if (p.person.email) found.set(`email:${p.person.email}`, p.id);
      }
    }
    return found;
  };
  const profileOf = (found: Map<string, string>, ref: TPersonRef, line: number, who: string) => {
    const id = found.get(refKey(ref));
    if (!id) fail(line, `${who} não encontrado(a) nesta escola: ${refLabel(ref)}`);
    return id;
  };

  switch (options.kind) {
    case "pessoas": {
      const rows = rowsOf("pessoas");
      const existing = { cpf: new Set<string>(), email: new Set<string>() };
      const cpfs = rows.flatMap((r) => (r.data.cpf ? [r.data.cpf] : []));
      const emails = rows.flatMap((r) => (r.data.email ? [r.data.email] : []));
      for (const part of chunks(cpfs)) for (const p of await db().person.findMany({ where: { cpf: { in: part } }, select: { cpf: true } })) existing.cpf.add(p.cpf!);
      for (const part of chunks(emails)) for (const p of await db().person.findMany({ where: { email: { in: part } }, select: { email: true } })) existing.email.add(p.email!);
      const classes = rows.some((r) => r.data.turma) ? await loadClasses() : new Map<string, string>();
      const items: Extract<TImportPlan, { kind: "pessoas" }>["items"] = [];
      for (const { line, data } of rows) {
        let ok = true;
        if (data.cpf) {
          ok = once(`cpf:${data.cpf}`, line, (first) => `CPF repetido no arquivo (também na linha ${first})`) && ok;
          if (existing.cpf.has(data.cpf)) {
            ok = false;
            fail(line, "CPF já cadastrado no Hub");
          }
        }
        if (data.email) {
          ok = once(`email:${data.email}`, line, (first) => `E-mail repetido no arquivo (também na linha ${first})`) && ok;
          if (existing.email.has(data.email)) {
            ok = false;
            fail(line, "E-mail já cadastrado no Hub");
          }
        }
        const classId = data.turma && data.periodo ? classes.get(classKey(data.periodo, data.turma)) : undefined;
        if (data.turma && !classId) {
          ok = false;
          fail(line, `Turma "${data.turma}" não encontrada no período ${data.periodo}`);
        }
        if (ok) {
          items.push({
            line,
            role: data.perfil,
            classId,
            person: { name: data.nome, cpf: data.cpf, email: data.email, phone: data.telefone, birthDate: data.nascimento },
          });
        }
      }
      return { kind: "pessoas", items };
    }
    case "periodos": {
      const rows = rowsOf("periodos");
      const existing = new Set((await db().period.findMany({ where: { institutionId }, select: { code: true } })).map((p) => p.code));
      const items: Extract<TImportPlan, { kind: "periodos" }>["items"] = [];
      for (const { line, data } of rows) {
        if (!once(data.codigo, line, (first) => `Período ${data.codigo} repetido no arquivo (também na linha ${first})`)) continue;
        if (existing.has(data.codigo)) {
          fail(line, `O período ${data.codigo} já existe nesta escola`);
          continue;
        }
        items.push({ line, code: data.codigo, name: data.nome, startsOn: data.inicio, endsOn: data.fim });
      }
      return { kind: "periodos", items };
    }
    case "disciplinas": {
      const rows = rowsOf("disciplinas");
      const existing = new Set((await db().subject.findMany({ where: { institutionId }, select: { name: true } })).map((s) => fold(s.name)));
      const items: Extract<TImportPlan, { kind: "disciplinas" }>["items"] = [];
      for (const { line, data } of rows) {
        if (!once(fold(data.nome), line, (first) => `Disciplina repetida no arquivo (também na linha ${first})`)) continue;
        if (existing.has(fold(data.nome))) {
          fail(line, `A disciplina "${data.nome}" já existe nesta escola`);
          continue;
        }
        items.push({ line, name: data.nome, code: data.codigo });
      }
      return { kind: "disciplinas", items };
    }
    case "turmas": {
      const rows = rowsOf("turmas");
      const periods = new Map((await db().period.findMany({ where: { institutionId }, select: { id: true, code: true } })).map((p) => [p.code, p.id]));
      const classes = await loadClasses();
      const items: Extract<TImportPlan, { kind: "turmas" }>["items"] = [];
      for (const { line, data } of rows) {
        const periodId = periods.get(data.periodo);
        if (!periodId) fail(line, `Período ${data.periodo} não cadastrado nesta escola`);
        const fresh = once(classKey(data.periodo, data.nome), line, (first) => `Turma repetida no arquivo (também na linha ${first})`);
        if (fresh && classes.has(classKey(data.periodo, data.nome))) fail(line, `A turma "${data.nome}" já existe no período ${data.periodo}`);
        else if (fresh && periodId) items.push({ line, periodId, name: data.nome, grade: data.serie, shift: data.turno });
      }
      return { kind: "turmas", items };
    }
    case "matriculas": {
      const rows = rowsOf("matriculas");
      const classes = await loadClasses();
      const students = await resolveProfiles("aluno", rows.map((r) => r.data.aluno));
      const enrolled = new Set<string>();
      const studentIds = [...new Set(students.values())];
      for (const part of chunks(studentIds)) {
        for (const e of await db().classStudent.findMany({ where: { studentId: { in: part } }, select: { classId: true, studentId: true } })) enrolled.add(`${e.classId}\0${e.studentId}`);
      }
      const items: Extract<TImportPlan, { kind: "matriculas" }>["items"] = [];
      for (const { line, data } of rows) {
        const classId = classes.get(classKey(data.periodo, data.turma));
        if (!classId) fail(line, `Turma "${data.turma}" não encontrada no período ${data.periodo}`);
        const studentId = profileOf(students, data.aluno, line, "Aluno(a)");
        if (!classId || !studentId) continue;
        if (!once(`${classId}\0${studentId}`, line, (first) => `Matrícula repetida no arquivo (também na linha ${first})`)) continue;
        if (enrolled.has(`${classId}\0${studentId}`)) fail(line, "O aluno já está matriculado nesta turma");
        else items.push({ line, classId, studentId });
      }
      return { kind: "matriculas", items };
    }
    case "professores": {
      const rows = rowsOf("professores");
      const classes = await loadClasses();
      const subjects = new Map((await db().subject.findMany({ where: { institutionId }, select: { id: true, name: true } })).map((s) => [fold(s.name), s.id]));
      const teachers = await resolveProfiles("professor", rows.map((r) => r.data.professor));
      const assigned = new Set(
        (await db().subjectTeacher.findMany({ where: { class: { institutionId } }, select: { classId: true, subjectId: true, teacherId: true } })).map(
          (a) => `${a.classId}\0${a.subjectId}\0${a.teacherId}`,
        ),
      );
      const items: Extract<TImportPlan, { kind: "professores" }>["items"] = [];
      for (const { line, data } of rows) {
        const classId = classes.get(classKey(data.periodo, data.turma));
        if (!classId) fail(line, `Turma "${data.turma}" não encontrada no período ${data.periodo}`);
        const subjectId = subjects.get(fold(data.disciplina));
        if (!subjectId) fail(line, `Disciplina "${data.disciplina}" não cadastrada nesta escola`);
        const teacherId = profileOf(teachers, data.professor, line, "Professor(a)");
        if (!classId || !subjectId || !teacherId) continue;
        const key = `${classId}\0${subjectId}\0${teacherId}`;
        if (!once(key, line, (first) => `Atribuição repetida no arquivo (também na linha ${first})`)) continue;
        if (assigned.has(key)) fail(line, "O professor já leciona esta disciplina nesta turma");
        else items.push({ line, classId, subjectId, teacherId });
      }
      return { kind: "professores", items };
    }
    case "responsaveis": {
      const rows = rowsOf("responsaveis");
      const guardians = await resolveProfiles("responsavel", rows.map((r) => r.data.responsavel));
      const students = await resolveProfiles("aluno", rows.map((r) => r.data.aluno));
      const linked = new Set<string>();
      for (const part of chunks([...new Set(students.values())])) {
        for (const g of await db().guardianStudent.findMany({ where: { studentId: { in: part } }, select: { guardianId: true, studentId: true } })) linked.add(`${g.guardianId}\0${g.studentId}`);
      }
      const items: Extract<TImportPlan, { kind: "responsaveis" }>["items"] = [];
      for (const { line, data } of rows) {
        const guardianId = profileOf(guardians, data.responsavel, line, "Responsável");
        const studentId = profileOf(students, data.aluno, line, "Aluno(a)");
        if (!guardianId || !studentId) continue;
        if (!once(`${guardianId}\0${studentId}`, line, (first) => `Vínculo repetido no arquivo (também na linha ${first})`)) continue;
        if (linked.has(`${guardianId}\0${studentId}`)) fail(line, "Este responsável já está vinculado ao aluno");
        else items.push({ line, guardianId, studentId, kinship: data.parentesco });
      }
      return { kind: "responsaveis", items };
    }
  }
}
