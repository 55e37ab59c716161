// How a OneRoster field name maps onto SQL, per endpoint. The endpoint's query has already joined
// what it needs; the map only names expressions of it. The map is code (trusted), never input:
// its `sql` strings are spliced into statements, the client's values never are.

import type { TFilterOperator } from "./filter-parse";

export type TFieldType = "string" | "datetime" | "date" | "enum" | "boolean" | "number";

export interface TFieldSpec {
  /** A scalar SQL expression of the already-joined query, e.g. `u.family_name`. */
  sql: string;
  type: TFieldType;
  /** For `enum`: every value the Hub can emit; a filter naming another one is refused. */
  enumValues?: readonly string[];
  /** Default true. */
  sortable?: boolean;
  /** The expression to sort by when it is not `sql` (an id filtered as text, sorted as the uuid its index orders). */
  sortSql?: string;
  /**
   * For an id held as a uuid and filtered as text (`sql` is `column::text`): the uuid column itself.
   * `=` and `!=` with a value in a uuid's text form compare it as a uuid, which the column's index
   * finds; text compared to `column::text` reads every row. A value in no such form equals no id.
   */
  uuidSql?: string;
  /** Default true. */
  filterable?: boolean;
  /**
   * For `string`: the operators allowed, when fewer than a string's (an id compares only by `=`
   * and `!=`).
   */
  operators?: readonly TFilterOperator[];
  /**
   * For `string`: the value as the column holds it, from the value the client sent (a person's id
   * arrives as the application's pairwise id and is compared as the Hub's). Built per request.
   */
  toColumnValue?: (value: string) => string;
}

/**
 * OneRoster field name → SQL. Dotted names (`org.sourcedId`, `school.sourcedId`) name a field of
 * a referenced object; they exist only where the endpoint's map lists them.
 */
export type TFieldMap = Readonly<Record<string, TFieldSpec>>;

/**
 * The entry for a client-supplied name, or undefined. Own properties only: `fieldMap[name]`
 * would hand back Object.prototype members for names like `constructor` or `__proto__`.
 */
export function fieldSpec(fieldMap: TFieldMap, name: string): TFieldSpec | undefined {
  return Object.hasOwn(fieldMap, name) ? fieldMap[name] : undefined;
}
