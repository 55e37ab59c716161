import { IMPORT_COLUMNS, IMPORT_MAX_ROWS, ZImportRequestSchema, normalizeHeader, type TImportKind } from "@/lib/validations/management";
import { CHUNK, createImportContext, type TImportPlan } from "./import/context";
import { IMPORT_VALIDATORS } from "./import/validators";
import { parseCsv } from "./parse-csv";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";

export interface TRowError {
  /** The file of a multi-file import (OneRoster: "users.csv"); absent for a single CSV. */
  file?: string;
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
  const validator = IMPORT_VALIDATORS[kind](createImportContext(institution.id, fail));
  for (const [index, row] of parsed.rows.entries()) {
    if (row.values.length > parsed.header.length && row.values.slice(parsed.header.length).some((v) => v !== "")) {
      fail(row.line, `A linha tem ${row.values.length} colunas e o cabeçalho ${parsed.header.length}`);
      continue;
    }
    const cells: Record<string, string> = {};
    mapped.forEach((name, i) => {
      if (name) cells[name] = row.values[i] ?? "";
    });
    validator.row(row.line, cells);
    if ((index + 1) % CHUNK === 0) options.onProgress?.({ phase: "validando", done: index + 1, total });
  }

  const plan = await validator.plan();
  options.onProgress?.({ phase: "validando", done: total, total });
  if (errors.size) {
    const rowErrors = [...errors.entries()].sort((a, b) => a[0] - b[0]).map(([line, messages]) => ({ line, messages }));
    return { ok: false, total, fileErrors: [], rowErrors };
  }
  return { ok: true, total, plan };
}
