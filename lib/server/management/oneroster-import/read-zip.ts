// A OneRoster 1.2 CSV zip opened: its manifest and the Rostering files it declares, each parsed as
// CSV with its line numbers (the parser of the spreadsheet import, parse-csv.ts). Pure.
import { unzipSync } from "fflate";
import { CSV_FILES, CSV_HEADERS, parseManifest, REQUIRED_COLUMNS, type TCsvFile, type TFileMode } from "@/lib/oneroster/csv-binding";
import { parseCsv } from "../parse-csv";

/** What one file may hold once inflated, and all of them together (a zip bomb stops here). */
export const ONEROSTER_MAX_FILE_BYTES = 64 * 1024 * 1024;
export const ONEROSTER_MAX_TOTAL_BYTES = 128 * 1024 * 1024;
/** Rows of all files together, as the spreadsheet import's limit is per file. */
export const ONEROSTER_MAX_ROWS = 100_000;

export interface TCsvTable {
  header: string[];
  rows: { line: number; cells: Record<string, string> }[];
}

export type TOneRosterPackage =
  | { ok: true; modes: Record<TCsvFile, TFileMode>; tables: Partial<Record<TCsvFile, TCsvTable>>; total: number; warnings: string[] }
  | { ok: false; fileErrors: string[] };

const basename = (name: string) => name.slice(name.lastIndexOf("/") + 1);

export function readOneRosterZip(bytes: Uint8Array): TOneRosterPackage {
  let entries: Record<string, Uint8Array>;
  let declared = 0;
  try {
    entries = unzipSync(bytes, {
      filter: (file) => {
        if (!basename(file.name).toLowerCase().endsWith(".csv")) return false;
        declared += file.originalSize;
        return file.originalSize <= ONEROSTER_MAX_FILE_BYTES && declared <= ONEROSTER_MAX_TOTAL_BYTES;
      },
    });
  } catch {
    return { ok: false, fileErrors: ["O arquivo não é um zip válido. Envie o .zip com manifest.csv e os arquivos CSV do OneRoster 1.2."] };
  }
  if (declared > ONEROSTER_MAX_TOTAL_BYTES) return { ok: false, fileErrors: ["Os arquivos do zip são grandes demais depois de descompactados (máximo 128 MB)."] };
  const byName = new Map<string, Uint8Array>();
  for (const [name, data] of Object.entries(entries)) byName.set(basename(name), data);
  const text = (name: string) => {
    const data = byName.get(name);
    return data ? new TextDecoder("utf-8").decode(data) : null;
  };

  const manifestText = text("manifest.csv");
  if (manifestText === null) return { ok: false, fileErrors: ["O zip não tem manifest.csv: não é um pacote OneRoster 1.2."] };
  const manifestCsv = parseCsv(manifestText);
  if (!manifestCsv.ok) return { ok: false, fileErrors: [`manifest.csv: ${manifestCsv.message}`] };
  const manifest = parseManifest([manifestCsv.header, ...manifestCsv.rows.map((r) => r.values)]);
  if (!manifest.ok) return { ok: false, fileErrors: [manifest.message] };

  const fileErrors: string[] = [];
  const warnings = manifest.unsupported.length ? [`O Hub não lê ${manifest.unsupported.map((f) => `${f}.csv`).join(", ")} (só os arquivos de cadastro); eles foram ignorados.`] : [];
  const tables: Partial<Record<TCsvFile, TCsvTable>> = {};
  let total = 0;
  for (const file of CSV_FILES) {
    if (manifest.files[file] === "absent") continue;
    const body = text(`${file}.csv`);
    if (body === null) {
      fileErrors.push(`O manifest.csv diz que ${file}.csv está no pacote (${manifest.files[file]}), mas ele não está no zip.`);
      continue;
    }
    const parsed = parseCsv(body);
    if (!parsed.ok) {
      // An empty file (header only or nothing) is an empty table: a bulk file with no rows deletes everything of its kind.
      if (body.trim() === "") tables[file] = { header: [...CSV_HEADERS[file]], rows: [] };
      else fileErrors.push(`${file}.csv: ${parsed.message}`);
      continue;
    }
    const header = parsed.header.map((h) => h.trim());
    const missing = REQUIRED_COLUMNS[file].filter((c) => !header.includes(c));
    if (missing.length) fileErrors.push(`${file}.csv: faltam as colunas ${missing.join(", ")} (cabeçalho do OneRoster 1.2).`);
    const known = new Set(CSV_HEADERS[file]);
    const unknown = header.filter((h) => h && !known.has(h) && !h.startsWith("metadata."));
    if (unknown.length) fileErrors.push(`${file}.csv: colunas desconhecidas no OneRoster 1.2: ${unknown.join(", ")}.`);
    tables[file] = {
      header,
      rows: parsed.rows.map((row) => ({ line: row.line, cells: Object.fromEntries(header.map((name, i) => [name, (row.values[i] ?? "").trim()])) })),
    };
    total += parsed.rows.length;
  }
  if (total > ONEROSTER_MAX_ROWS) fileErrors.push(`O pacote tem ${total} linhas; o máximo por importação é ${ONEROSTER_MAX_ROWS}.`);
  if (fileErrors.length) return { ok: false, fileErrors };
  return { ok: true, modes: manifest.files, tables, total, warnings };
}
