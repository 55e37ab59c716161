// A parsed filter, compiled to a SQL boolean expression over the endpoint's field map, so the
// database filters (and can use its indexes) instead of the application filtering pages in memory.
// Values only ever travel as bound parameters ($n); the SQL text holds the field map's trusted
// expressions, operators and placeholders, nothing the client typed.

import { fieldSpec, type TFieldMap, type TFieldSpec, type TFieldType } from "./field-map";
import type { TFilterAst, TFilterOperator, TFilterPredicate } from "./filter-parse";
import { booleanValue, containsPattern, dateTimeValue, dateValue, enumValue, numberValue } from "./filter-values";
import { OneRosterError, quoteInput } from "./status";

function filterError(description: string): OneRosterError {
  return new OneRosterError("invalid_filter_field", description);
}

/**
 * Rule: the field exists on this endpoint. The binding (1.1 text, kept by 1.2's 400 response):
 * "If the consumer requests that data be filtered by a non-existent field, NO data is returned
 * ... CodeMajor 'failure', Severity 'error', CodeMinor 'invalid_filter_field' ... Description
 * should contain the supplied unknown field."
 */
function knownField(fieldMap: TFieldMap, predicate: TFilterPredicate): TFieldSpec {
  const spec = fieldSpec(fieldMap, predicate.field);
  if (!spec) throw filterError(`Unknown filter field ${quoteInput(predicate.field)}.`);
  return spec;
}

/** Rule: the field may be filtered on (a map can expose a field for output only). */
function filterableField(spec: TFieldSpec, predicate: TFilterPredicate): void {
  if (spec.filterable === false) throw filterError(`Field ${quoteInput(predicate.field)} cannot be used in a filter.`);
}

/**
 * Rule: the predicate means something for the field's type. `~` (contains) is text matching, so
 * strings only; enums and booleans have no order, so equality only.
 */
const OPERATORS: Readonly<Record<TFieldType, readonly TFilterOperator[]>> = {
  string: ["=", "!=", ">", ">=", "<", "<=", "~"],
  datetime: ["=", "!=", ">", ">=", "<", "<="],
  date: ["=", "!=", ">", ">=", "<", "<="],
  number: ["=", "!=", ">", ">=", "<", "<="],
  enum: ["=", "!="],
  boolean: ["=", "!="],
};

function operatorForType(spec: TFieldSpec, predicate: TFilterPredicate): void {
  const allowed = spec.operators ?? OPERATORS[spec.type];
  if (!allowed.includes(predicate.operator)) {
    throw filterError(
      `Predicate '${predicate.operator}' cannot be used with ${quoteInput(predicate.field)} (${spec.type}); use one of ${allowed.join(" ")}.`,
    );
  }
}

/** Appends a parameter and returns its placeholder, with the cast its type needs. */
/** A uuid as PostgreSQL writes it as text. */
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function bind(params: unknown[], value: unknown, cast: string): string {
  params.push(value);
  return `$${params.length}${cast}`;
}

/**
 * `!=` is IS DISTINCT FROM: `givenName!='Ana'` must also return the users who have no given
 * name, which `<>` would drop (NULL <> 'Ana' is NULL, not true). The other comparisons exclude
 * rows where the field is null, as a comparison with "no value" cannot hold.
 */
function comparison(sql: string, operator: Exclude<TFilterOperator, "~">, placeholder: string): string {
  return operator === "!=" ? `(${sql} IS DISTINCT FROM ${placeholder})` : `(${sql} ${operator} ${placeholder})`;
}

/** Rule: the value fits the field's type; then the condition itself. */
function condition(spec: TFieldSpec, predicate: TFilterPredicate, params: unknown[]): string {
  const { field, operator, value } = predicate;
  if (operator === "~") {
    // Case-insensitive, as a person searching a name expects ("silva" finds "Silva").
    return `(${spec.sql} ILIKE ${bind(params, containsPattern(value), "::text")} ESCAPE '\\')`;
  }
  switch (spec.type) {
    case "string": {
      const columnValue = spec.toColumnValue ? spec.toColumnValue(value) : value;
      // An id: compared as the uuid its index holds. A value that is not a uuid's text form (lower
      // case, as `column::text` writes it) equals no id and differs from every one.
      if (spec.uuidSql && (operator === "=" || operator === "!=")) {
        if (!UUID_TEXT.test(columnValue)) return operator === "=" ? "false" : "true";
        return comparison(spec.uuidSql, operator, bind(params, columnValue, "::uuid"));
      }
      return comparison(spec.sql, operator, bind(params, columnValue, "::text"));
    }
    case "datetime":
      return comparison(spec.sql, operator, bind(params, dateTimeValue(field, value), "::timestamptz"));
    case "date":
      return comparison(spec.sql, operator, bind(params, dateValue(field, value), "::date"));
    case "number":
      return comparison(spec.sql, operator, bind(params, numberValue(field, value), "::numeric"));
    case "boolean":
      return comparison(spec.sql, operator, bind(params, booleanValue(field, value), "::boolean"));
    case "enum":
      // No cast: the column may be a PostgreSQL enum type, which has no `= text` operator;
      // an untyped parameter takes the column's type.
      return comparison(spec.sql, operator, bind(params, enumValue(field, value, spec.enumValues), ""));
  }
}

function compilePredicate(predicate: TFilterPredicate, fieldMap: TFieldMap, params: unknown[]): string {
  const spec = knownField(fieldMap, predicate);
  filterableField(spec, predicate);
  operatorForType(spec, predicate);
  return condition(spec, predicate, params);
}

/**
 * The SQL boolean expression for a parsed filter, appending its values to `params` (placeholders
 * continue from params.length, so the caller may bind its own parameters first).
 *
 * The result is always parenthesised, so `WHERE <authorisation> AND <filter>` stays correct when
 * the filter holds OR: an unparenthesised `... AND a OR b` would return rows the caller's own
 * conditions exclude.
 */
export function compileFilter(ast: TFilterAst, fieldMap: TFieldMap, params: unknown[]): string {
  // Compiled against a copy: a predicate refused half-way leaves the caller's params untouched.
  const own = params.slice();
  const sql = compileNode(ast, fieldMap, own);
  params.push(...own.slice(params.length));
  return sql;
}

function compileNode(ast: TFilterAst, fieldMap: TFieldMap, params: unknown[]): string {
  if (ast.kind === "predicate") return compilePredicate(ast, fieldMap, params);
  const joiner = ast.kind === "and" ? " AND " : " OR ";
  return `(${ast.operands.map((operand) => compileNode(operand, fieldMap, params)).join(joiner)})`;
}

/**
 * The latest lower bound a filter puts on `dateLastModified` that every match meets: from its `>`
 * and `>=` predicates on it, when the filter is one of them or ANDs them with others, to the
 * millisecond below (a bound no later than the filter's). Null when a match may have any date (no
 * such predicate, or one inside an OR). A delta read's filter (`dateLastModified>'…'`) has one.
 */
export function modifiedSince(ast: TFilterAst): Date | null {
  let since: number | null = null;
  for (const p of conjunctsOf(ast)) {
    if (p.kind !== "predicate" || p.field !== "dateLastModified" || (p.operator !== ">" && p.operator !== ">=")) continue;
    const at = Date.parse(dateTimeValue(p.field, p.value));
    if (since === null || at > since) since = at;
  }
  return since === null ? null : new Date(since);
}

/** The predicates every match satisfies: the filter itself, or the operands of its top-level AND (none under an OR). */
function conjunctsOf(ast: TFilterAst): readonly TFilterAst[] {
  return ast.kind === "predicate" ? [ast] : ast.kind === "and" ? ast.operands : [];
}

/** Whether every match has `field` equal to one value: an `=` predicate on it, alone or ANDed with others. */
export function pinsField(ast: TFilterAst, field: string): boolean {
  return conjunctsOf(ast).some((p) => p.kind === "predicate" && p.field === field && p.operator === "=");
}

/** The value of the filter when it is nothing but `field = value`, else null. */
export function onlyEquals(ast: TFilterAst, field: string): string | null {
  return ast.kind === "predicate" && ast.field === field && ast.operator === "=" ? ast.value : null;
}
