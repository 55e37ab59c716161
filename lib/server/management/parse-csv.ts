// RFC 4180 CSV, as spreadsheets export it in Brazil: `;` or `,` (or tab) as the delimiter, chosen
// from the header line; quoted fields with doubled quotes and line breaks; CRLF or LF; a UTF-8
// BOM. Pure: no I/O, so it is unit-tested alone.

export interface TCsvRow {
  /** 1-based line of the file where the row starts (the header is line 1), as a spreadsheet shows it. */
  line: number;
  values: string[];
}

export type TCsvParseResult = { ok: true; header: string[]; rows: TCsvRow[] } | { ok: false; message: string };

const DELIMITERS = [";", ",", "\t"] as const;

function detectDelimiter(text: string): string {
  const end = text.search(/\r?\n/);
  const first = end === -1 ? text : text.slice(0, end);
  let best: string = ",";
  let bestCount = -1;
  for (const d of DELIMITERS) {
    const count = first.split(d).length - 1;
    if (count > bestCount) [best, bestCount] = [d, count];
  }
  return best;
}

export function parseCsv(input: string): TCsvParseResult {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (!text.trim()) return { ok: false, message: "O arquivo está vazio." };
  const delimiter = detectDelimiter(text);
  const records: TCsvRow[] = [];
  let field = "";
  let values: string[] = [];
  let line = 1;
  let recordLine = 1;
  let quoted = false;
  let quoteStartLine = 0;
  let i = 0;
  const endRecord = () => {
    values.push(field);
    field = "";
    // Lines with nothing in them (trailing newlines, blank rows) are not rows.
    if (values.some((v) => v.trim() !== "")) records.push({ line: recordLine, values });
    values = [];
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
        i++;
        continue;
      }
      if (c === "\n") line++;
      field += c;
      i++;
      continue;
    }
    if (c === '"' && field.trim() === "") {
      quoted = true;
      quoteStartLine = line;
      field = "";
      i++;
      continue;
    }
    if (c === delimiter) {
      values.push(field);
      field = "";
      i++;
      continue;
    }
    if (c === "\r" && text[i + 1] === "\n") {
      i++;
      continue;
    }
    if (c === "\n" || c === "\r") {
      endRecord();
      line++;
      recordLine = line;
      i++;
      continue;
    }
    field += c;
    i++;
  }
  if (quoted) return { ok: false, message: `Aspas abertas na linha ${quoteStartLine} não foram fechadas.` };
  endRecord();
  const [header, ...rows] = records;
  if (!header) return { ok: false, message: "O arquivo está vazio." };
  return { ok: true, header: header.values.map((h) => h.trim()), rows: rows.map((r) => ({ line: r.line, values: r.values.map((v) => v.trim()) })) };
}
