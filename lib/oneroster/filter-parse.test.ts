import { describe, expect, it } from "vitest";
import { filterPredicates, MAX_FILTER_LENGTH, MAX_FILTER_PREDICATES, parseFilter, type TFilterAst } from "./filter-parse";
import { OneRosterError } from "./status";
import { refusedWith } from "./test-refusal";

function p(field: string, operator: string, value: string): TFilterAst {
  return { kind: "predicate", field, operator, value } as TFilterAst;
}

/** The error parseFilter throws, asserting it is a 400 invalid_filter_field and nothing else. */
const filterError = (text: string): OneRosterError => refusedWith("invalid_filter_field", () => parseFilter(text));

describe("parseFilter", () => {
  it.each(["=", "!=", ">", ">=", "<", "<=", "~"])("reads the %s predicate", (operator) => {
    expect(parseFilter(`familyName${operator}'Silva'`)).toEqual(p("familyName", operator, "Silva"));
  });

  it("reads AND", () => {
    expect(parseFilter("status='active' AND familyName='Silva'")).toEqual({
      kind: "and",
      operands: [p("status", "=", "active"), p("familyName", "=", "Silva")],
    });
  });

  it("reads OR", () => {
    expect(parseFilter("status='active' OR status='tobedeleted'")).toEqual({
      kind: "or",
      operands: [p("status", "=", "active"), p("status", "=", "tobedeleted")],
    });
  });

  it("binds AND tighter than OR", () => {
    expect(parseFilter("a='1' OR b='2' AND c='3' OR d='4'")).toEqual({
      kind: "or",
      operands: [p("a", "=", "1"), { kind: "and", operands: [p("b", "=", "2"), p("c", "=", "3")] }, p("d", "=", "4")],
    });
    expect(parseFilter("a='1' AND b='2' OR c='3'")).toEqual({
      kind: "or",
      operands: [{ kind: "and", operands: [p("a", "=", "1"), p("b", "=", "2")] }, p("c", "=", "3")],
    });
  });

  it("reads a doubled quote inside a value as one quote", () => {
    expect(parseFilter("familyName='O''Brien'")).toEqual(p("familyName", "=", "O'Brien"));
    expect(parseFilter("familyName=''''")).toEqual(p("familyName", "=", "'"));
    expect(parseFilter("familyName='a'''")).toEqual(p("familyName", "=", "a'"));
  });

  it("keeps everything inside quotes verbatim, operators and keywords included", () => {
    expect(parseFilter("givenName='x AND y=''z'' OR >= ~ (1)'")).toEqual(p("givenName", "=", "x AND y='z' OR >= ~ (1)"));
    expect(parseFilter("givenName='  padded  '")).toEqual(p("givenName", "=", "  padded  "));
    expect(parseFilter("givenName='João Ñandú 名前'")).toEqual(p("givenName", "=", "João Ñandú 名前"));
  });

  it("accepts an empty quoted value (the type check decides whether it means anything)", () => {
    expect(parseFilter("middleName=''")).toEqual(p("middleName", "=", ""));
  });

  it("tolerates whitespace around predicates, operators and keywords", () => {
    expect(parseFilter("  familyName  >=  'A'  \tAND\n givenName ~ 'b'  ")).toEqual({
      kind: "and",
      operands: [p("familyName", ">=", "A"), p("givenName", "~", "b")],
    });
    expect(parseFilter("a='1'AND b='2'")).toEqual({ kind: "and", operands: [p("a", "=", "1"), p("b", "=", "2")] });
  });

  it("reads dotted field names for nested fields", () => {
    expect(parseFilter("primaryOrg.sourcedId='org-1'")).toEqual(p("primaryOrg.sourcedId", "=", "org-1"));
    expect(parseFilter("a.b.c_1='x'")).toEqual(p("a.b.c_1", "=", "x"));
  });

  it("reads dates as text (the field's type is checked when compiling)", () => {
    expect(parseFilter("dateLastModified>'2024-05-01T10:00:00.123+02:00'")).toEqual(
      p("dateLastModified", ">", "2024-05-01T10:00:00.123+02:00"),
    );
  });

  it("accepts up to the predicate limit", () => {
    const text = Array.from({ length: MAX_FILTER_PREDICATES }, (_, i) => `f${i}='${i}'`).join(" OR ");
    expect(filterPredicates(parseFilter(text))).toHaveLength(MAX_FILTER_PREDICATES);
  });

  it("lists the predicates of a tree left to right", () => {
    expect(filterPredicates(parseFilter("a='1' OR b='2' AND c='3'")).map((x) => x.field)).toEqual(["a", "b", "c"]);
  });

  describe("refuses malformed input with invalid_filter_field", () => {
    it.each([
      ["an empty filter", "", /empty/],
      ["a blank filter", "   ", /empty/],
      ["an unbalanced quote", "familyName='Silva", /Unterminated quoted value starting at character 12/],
      ["a quote left open by a doubled quote", "familyName='O''Brien", /Unterminated/],
      ["a trailing AND", "familyName='Silva' AND", /ends with AND/],
      ["a trailing OR and spaces", "familyName='Silva' OR   ", /ends with OR/],
      ["a leading AND", "AND familyName='Silva'", /Expected a predicate .* after field 'AND'/],
      ["a missing value", "familyName=", /Missing value after 'familyName='/],
      ["a missing value before AND", "familyName= AND a='1'", /must be enclosed in single quotes/],
      ["an unquoted value", "grade=3", /must be enclosed in single quotes/],
      ["a double-quoted value", 'familyName="Silva"', /must be enclosed in single quotes/],
      ["a missing predicate", "familyName 'Silva'", /Expected a predicate/],
      ["a missing predicate at the end", "familyName", /ends after field 'familyName'/],
      ["an unknown predicate", "familyName=='Silva'", /must be enclosed in single quotes/],
      ["a SQL-style predicate", "familyName<>'Silva'", /must be enclosed in single quotes/],
      ["a LIKE keyword", "familyName LIKE 'S%'", /Expected a predicate/],
      ["a missing field", "='Silva'", /Expected a field name at character 1/],
      ["a field starting with a digit", "1a='x'", /Expected a field name/],
      ["a trailing dot", "org.='x'", /field name after '.'/],
      ["a leading dot", ".org='x'", /Expected a field name/],
      ["a double dot", "org..id='x'", /field name after '.'/],
      ["lower-case and", "a='1' and b='2'", /upper case: AND/],
      ["lower-case or", "a='1' or b='2'", /upper case: OR/],
      ["another keyword", "a='1' XOR b='2'", /Expected AND or OR .* found 'XOR'/],
      ["two predicates with no logical", "a='1' b='2'", /Expected AND or OR/],
      ["a keyword glued to the next field", "a='1' ANDb='2'", /Expected AND or OR .* found 'ANDb'/],
      ["parentheses", "(a='1' OR b='2') AND c='3'", /Expected a field name/],
      ["a closing parenthesis", "a='1')", /Expected AND or OR/],
      ["NOT", "NOT a='1'", /Expected a predicate/],
      ["a statement terminator", "a='1'; DROP TABLE users", /Expected AND or OR/],
      ["a comment", "a='1' -- x", /Expected AND or OR/],
      ["a NUL inside a value", "a='x\u0000y'", /NUL/],
      ["a very long field name", `${"a".repeat(200)}='x'`, /too long/],
    ])("%s", (_, text, message) => {
      expect(filterError(text).description).toMatch(message);
    });

    it(`a filter longer than ${MAX_FILTER_LENGTH} characters (10 KiB)`, () => {
      expect(filterError(`familyName='${"x".repeat(10 * 1024)}'`).description).toMatch(/longer than 2048/);
    });

    it("1000 predicates", () => {
      const text = Array.from({ length: 1000 }, (_, i) => `a='${i}'`).join(" AND ");
      expect(filterError(text).description).toMatch(/longer than/);
    });

    it(`${MAX_FILTER_PREDICATES + 1} short predicates`, () => {
      const text = Array.from({ length: MAX_FILTER_PREDICATES + 1 }, () => "a='1'").join(" OR ");
      expect(text.length).toBeLessThan(MAX_FILTER_LENGTH);
      expect(filterError(text).description).toMatch(/more than 20 predicates/);
    });
  });

  it("answers a filter at the length limit, however it is built, with a parse or a OneRosterError", () => {
    // The parser is one left-to-right pass (no backtracking); its speed is not asserted here:
    // timing goals live in bench/, never in tests.
    const shapes = [
      `a='${"'".repeat(2 * 1000)}'`.slice(0, MAX_FILTER_LENGTH),
      `a='${"x".repeat(MAX_FILTER_LENGTH - 4)}'`,
      "a".repeat(MAX_FILTER_LENGTH),
      " ".repeat(MAX_FILTER_LENGTH - 5) + "a='1'",
      `a='1' AND b='${" AND ".repeat(400)}'`.slice(0, MAX_FILTER_LENGTH),
    ];
    for (const text of shapes) {
      try {
        parseFilter(text);
      } catch (error) {
        expect(error).toBeInstanceOf(OneRosterError);
      }
    }
  });

  it("never throws anything but a OneRosterError, whatever the input (seeded fuzz)", () => {
    const alphabet = ["a", "b", "Z", "_", ".", "1", "'", "''", "=", "!", "!=", ">", ">=", "<", "<=", "~", " ", "\t", "AND", "OR", "and", "(", ")", ";", "\\", "%", "\u0000", "é", "\ud800"];
    let seed = 42;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let i = 0; i < 5000; i++) {
      const length = Math.floor(random() * 30);
      const text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join("");
      try {
        parseFilter(text);
      } catch (error) {
        expect(error, JSON.stringify(text)).toBeInstanceOf(OneRosterError);
      }
    }
  });
});
