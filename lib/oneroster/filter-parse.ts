// The `filter` query parameter of the OneRoster REST binding, parsed into a small tree.
//
// Grammar (the binding's "<data field><predicate><value>" or "<data field><predicate><value>
// <logical><data field><predicate><value>", predicates = != > >= < <= ~, logical AND / OR,
// values in single quotes), generalised to a chain of up to MAX_FILTER_PREDICATES predicates:
//
//   filter     = ws predicate *( ws logical 1*space predicate ) ws
//   predicate  = field ws operator ws value
//   field      = name *( "." name )          name = ALPHA *( ALPHA / DIGIT / "_" )
//   operator   = "=" / "!=" / ">" / ">=" / "<" / "<=" / "~"
//   value      = "'" *( not-quote / "''" ) "'"
//   logical    = "AND" / "OR"                (upper case, as the binding writes them)
//
// Decisions where the binding says nothing (docs: the module's report):
// - AND binds tighter than OR, as in SQL and SCIM (RFC 7644 §3.4.2.2); there are no parentheses,
//   since the binding defines no grouping.
// - A quote inside a value is written twice ('O''Brien'), the SQL convention.
// - Values must be quoted, numbers and booleans too ('3', 'true').
// The parser is one left-to-right pass with bounded input, so its cost is linear in the input.

import { OneRosterError, quoteInput } from "./status";

/** Longer filters are refused before parsing (a query string rarely needs more than a few). */
export const MAX_FILTER_LENGTH = 2048;
/** More predicates are refused: each becomes a SQL condition and a bound parameter. */
export const MAX_FILTER_PREDICATES = 20;
const MAX_FIELD_LENGTH = 128;

export type TFilterOperator = "=" | "!=" | ">" | ">=" | "<" | "<=" | "~";

export interface TFilterPredicate {
  readonly kind: "predicate";
  readonly field: string;
  readonly operator: TFilterOperator;
  /** The value with its quotes removed and doubled quotes undone. */
  readonly value: string;
}

export interface TFilterGroup {
  readonly kind: "and" | "or";
  /** Two or more operands; an "or" holds "and" groups or predicates, an "and" holds predicates. */
  readonly operands: readonly TFilterAst[];
}

export type TFilterAst = TFilterPredicate | TFilterGroup;

function filterError(description: string): OneRosterError {
  return new OneRosterError("invalid_filter_field", description);
}

const WHITESPACE = new Set([" ", "\t", "\n", "\r"]);

class Scanner {
  pos = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.pos >= this.text.length;
  }

  /** Skips whitespace; true when there was some. */
  skipSpace(): boolean {
    const start = this.pos;
    while (!this.done && WHITESPACE.has(this.text[this.pos]!)) this.pos++;
    return this.pos > start;
  }

  /** 1-based position for messages. */
  get column(): number {
    return this.pos + 1;
  }
}

function isNameStart(ch: string): boolean {
  return (ch >= "A" && ch <= "Z") || (ch >= "a" && ch <= "z");
}

function isNamePart(ch: string): boolean {
  return isNameStart(ch) || (ch >= "0" && ch <= "9") || ch === "_";
}

/** field = name *( "." name ): a dot must sit between two names. */
function readField(s: Scanner): string {
  const start = s.pos;
  for (;;) {
    if (s.done || !isNameStart(s.text[s.pos]!)) {
      throw filterError(
        s.pos === start
          ? `Expected a field name at character ${s.column}.`
          : `Expected a field name after '.' at character ${s.column}.`,
      );
    }
    while (!s.done && isNamePart(s.text[s.pos]!)) s.pos++;
    if (s.text[s.pos] !== ".") break;
    s.pos++;
  }
  const field = s.text.slice(start, s.pos);
  if (field.length > MAX_FIELD_LENGTH) throw filterError(`Field name at character ${start + 1} is too long.`);
  return field;
}

const OPERATOR_START = new Set(["=", "!", ">", "<", "~"]);

/** Longest match first, so `>=` is not read as `>` followed by a value starting with `=`. */
function readOperator(s: Scanner, field: string): TFilterOperator {
  const two = s.text.slice(s.pos, s.pos + 2);
  if (two === "!=" || two === ">=" || two === "<=") {
    s.pos += 2;
    return two;
  }
  const one = s.text[s.pos];
  if (one === "=" || one === ">" || one === "<" || one === "~") {
    s.pos += 1;
    return one;
  }
  throw filterError(
    s.done
      ? `Filter ends after field ${quoteInput(field)}: expected a predicate (=, !=, >, >=, <, <=, ~).`
      : `Expected a predicate (=, !=, >, >=, <, <=, ~) after field ${quoteInput(field)} at character ${s.column}.`,
  );
}

/** value = "'" *( not-quote / "''" ) "'" */
function readValue(s: Scanner, field: string, operator: TFilterOperator): string {
  if (s.done) throw filterError(`Missing value after ${quoteInput(field + operator)}.`);
  if (s.text[s.pos] !== "'") {
    throw filterError(`The value for ${quoteInput(field)} at character ${s.column} must be enclosed in single quotes.`);
  }
  const open = s.pos;
  s.pos++;
  let value = "";
  let chunkStart = s.pos;
  for (;;) {
    const close = s.text.indexOf("'", s.pos);
    if (close < 0) throw filterError(`Unterminated quoted value starting at character ${open + 1}.`);
    if (s.text[close + 1] === "'") {
      value += s.text.slice(chunkStart, close + 1);
      s.pos = close + 2;
      chunkStart = s.pos;
      continue;
    }
    value += s.text.slice(chunkStart, close);
    s.pos = close + 1;
    break;
  }
  // PostgreSQL text cannot hold U+0000: binding it would fail the statement (a 500).
  if (value.includes("\u0000")) throw filterError(`The value for ${quoteInput(field)} contains a NUL character.`);
  return value;
}

function readPredicate(s: Scanner): TFilterPredicate {
  const field = readField(s);
  s.skipSpace();
  if (!s.done && !OPERATOR_START.has(s.text[s.pos]!)) {
    throw filterError(`Expected a predicate (=, !=, >, >=, <, <=, ~) after field ${quoteInput(field)} at character ${s.column}.`);
  }
  const operator = readOperator(s, field);
  s.skipSpace();
  const value = readValue(s, field, operator);
  return { kind: "predicate", field, operator, value };
}

/** logical = "AND" / "OR", followed by whitespace and another predicate. */
function readLogical(s: Scanner): "AND" | "OR" {
  const start = s.pos;
  while (!s.done && isNamePart(s.text[s.pos]!)) s.pos++;
  const word = s.text.slice(start, s.pos);
  if (word !== "AND" && word !== "OR") {
    const hint = word.toUpperCase() === "AND" || word.toUpperCase() === "OR" ? ` (write it in upper case: ${word.toUpperCase()})` : "";
    throw filterError(
      word
        ? `Expected AND or OR at character ${start + 1}, found ${quoteInput(word)}${hint}.`
        : `Expected AND or OR at character ${start + 1}.`,
    );
  }
  const spaced = s.skipSpace();
  if (s.done) throw filterError(`Filter ends with ${word}: a predicate must follow it.`);
  if (!spaced) throw filterError(`Expected a space after ${word} at character ${s.column}.`);
  return word;
}

function group(kind: "and" | "or", operands: TFilterAst[]): TFilterAst {
  return operands.length === 1 ? operands[0]! : { kind, operands };
}

/**
 * Parses a `filter` value (already URL-decoded) into a tree. Every malformed input is a 400
 * OneRosterError with code minor invalid_filter_field (the binding's code for a filter it cannot
 * apply), never another exception.
 */
export function parseFilter(text: string): TFilterAst {
  if (typeof text !== "string") throw filterError("The filter must be a string.");
  if (text.length > MAX_FILTER_LENGTH) throw filterError(`The filter is longer than ${MAX_FILTER_LENGTH} characters.`);
  const s = new Scanner(text);
  s.skipSpace();
  if (s.done) throw filterError("The filter is empty.");

  const disjuncts: TFilterAst[] = [];
  let conjuncts: TFilterAst[] = [];
  let count = 0;
  for (;;) {
    if (++count > MAX_FILTER_PREDICATES) throw filterError(`The filter has more than ${MAX_FILTER_PREDICATES} predicates.`);
    conjuncts.push(readPredicate(s));
    s.skipSpace();
    if (s.done) break;
    if (readLogical(s) === "OR") {
      disjuncts.push(group("and", conjuncts));
      conjuncts = [];
    }
  }
  disjuncts.push(group("and", conjuncts));
  return group("or", disjuncts);
}

/** Every predicate of a tree, left to right. */
export function filterPredicates(ast: TFilterAst): TFilterPredicate[] {
  return ast.kind === "predicate" ? [ast] : ast.operands.flatMap(filterPredicates);
}
