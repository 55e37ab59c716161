// The `sort` and `orderBy` query parameters, as an ORDER BY list the database applies before
// LIMIT/OFFSET. The list always ends with the caller's unique tiebreaker (the sourcedId column):
// without it, rows with equal sort keys may come back in a different order on each query, and
// offset paging would then repeat some rows and skip others.

import { fieldSpec, type TFieldMap } from "./field-map";
import { OneRosterError, quoteInput } from "./status";

export type TOrderBy = "asc" | "desc";

/**
 * Rule: orderBy is one of the binding's two values. OpenAPI `orderBy`: "ascending (asc) or
 * descending (desc)", `enum: [asc, desc]`, `allowEmptyValue: false`. Default asc.
 */
export function parseOrderBy(orderBy: string | null | undefined): TOrderBy {
  if (orderBy === null || orderBy === undefined) return "asc";
  if (orderBy === "asc" || orderBy === "desc") return orderBy;
  throw new OneRosterError("invaliddata", `Invalid orderBy ${quoteInput(orderBy)}: expected 'asc' or 'desc'.`);
}

/**
 * Rule: the sort field exists on this endpoint and may be sorted on.
 *
 * OneRoster 1.1 answered an unknown sort field with the default order and a success/warning
 * `invalid_sort_field` status. 1.2 dropped that code minor from its vocabulary and carries no
 * status in a successful payload, so the warning can no longer be delivered; a silent default
 * order would hide the client's typo. The Hub refuses it: 400, code minor `invaliddata`.
 */
export function sortExpression(sort: string, fieldMap: TFieldMap): string {
  const spec = fieldSpec(fieldMap, sort);
  if (!spec) throw new OneRosterError("invaliddata", `Unknown sort field ${quoteInput(sort)}.`);
  if (spec.sortable === false) throw new OneRosterError("invaliddata", `Field ${quoteInput(sort)} cannot be used to sort.`);
  return spec.sortSql ?? spec.sql;
}

/**
 * The ORDER BY list (without the keywords) for `sort` / `orderBy`: the sort field, then
 * `tiebreaker`, both in the requested direction. With no `sort`, the tiebreaker alone (still in
 * the requested direction). `sort` names one field, as in the binding ("sort=[data_field]").
 *
 * The binding asks that "the sort order should follow the [UNICODE, 16] standard": that is the
 * collation of the field map's expression (e.g. `u.family_name COLLATE "und-x-icu"` where the
 * server has ICU), not something this function adds.
 */
export function parseSort(
  sort: string | null | undefined,
  orderBy: string | null | undefined,
  fieldMap: TFieldMap,
  tiebreaker: string,
): string {
  const { key, direction } = parseSortKey(sort, orderBy, fieldMap);
  if (key === null || key === tiebreaker) return `${tiebreaker} ${direction}`;
  return `${key} ${direction}, ${tiebreaker} ${direction}`;
}

/**
 * The sort field's SQL expression (null without `sort`) and the direction, for a caller that
 * orders in two steps (each institution's rows, then the merge) and needs the key by itself.
 */
export function parseSortKey(
  sort: string | null | undefined,
  orderBy: string | null | undefined,
  fieldMap: TFieldMap,
): { key: string | null; direction: "ASC" | "DESC" } {
  const direction = parseOrderBy(orderBy) === "desc" ? "DESC" : "ASC";
  if (sort === null || sort === undefined) return { key: null, direction };
  if (sort.trim() === "") throw new OneRosterError("invaliddata", "The sort parameter is empty.");
  return { key: sortExpression(sort.trim(), fieldMap), direction };
}
