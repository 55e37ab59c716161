import { describe, expect, it } from "vitest";
import { parseCsv } from "./parse-csv";

describe("parseCsv", () => {
  it("reads semicolon files with a BOM and CRLF, as Brazilian spreadsheets export them", () => {
    const result = parseCsv("\ufeffnome;cpf\r\nAna Lima;529.982.247-25\r\nBruno;\r\n");
    expect(result).toEqual({ ok: true, header: ["nome", "cpf"], rows: [{ line: 2, values: ["Ana Lima", "529.982.247-25"] }, { line: 3, values: ["Bruno", ""] }] });
  });

  it("reads comma files with quoted fields, doubled quotes and line breaks inside quotes", () => {
    const result = parseCsv('nome,obs\n"Silva, Ana","diz ""oi""\nem duas linhas"\nCaio,x\n');
    expect(result).toEqual({
      ok: true,
      header: ["nome", "obs"],
      rows: [
        { line: 2, values: ["Silva, Ana", 'diz "oi"\nem duas linhas'] },
        { line: 4, values: ["Caio", "x"] },
      ],
    });
  });

  it("skips blank lines but keeps the line numbers a spreadsheet shows", () => {
    const result = parseCsv("a;b\n\n1;2\n;\n3;4");
    expect(result.ok && result.rows.map((r) => [r.line, r.values])).toEqual([[3, ["1", "2"]], [5, ["3", "4"]]]);
  });

  it("reports an unclosed quote and an empty file", () => {
    expect(parseCsv('a;b\n"x;y\n')).toEqual({ ok: false, message: "Aspas abertas na linha 2 não foram fechadas." });
    expect(parseCsv(" \n")).toEqual({ ok: false, message: "O arquivo está vazio." });
  });

  it("detects tab-separated files", () => {
    expect(parseCsv("a\tb\n1\t2")).toMatchObject({ ok: true, header: ["a", "b"], rows: [{ values: ["1", "2"] }] });
  });
});
