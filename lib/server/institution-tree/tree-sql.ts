// The one walk of the institution tree. Every query that climbs to the ancestors or descends to
// the descendants builds its recursive CTE here, with the one depth bound.

/** A cycle cannot be created through the services, and deeper trees than this are a data error, not a real network: the bound keeps a bad row from looping. */
export const MAX_DEPTH = 64;

/**
 * A recursive CTE (for `WITH RECURSIVE`) named after its direction: `up` is the institution
 * `start` (an SQL expression, e.g. `$1::uuid`) and its ancestors, `down` the institution and its
 * descendants. Columns: id, name, kind (text), "parentId", depth (0 for `start`) and, for `down`,
 * path (lower-cased names and ids from `start`: `ORDER BY path` is tree order, siblings by name).
 */
export function treeCte(direction: "up" | "down", start: string): string {
  const down = direction === "down";
  const next = down ? `n."parentId" = t.id` : `n.id = t."parentId"`;
  return `${direction} AS (
  SELECT i.id, i.name, i.kind::text AS kind, i."parentId", 0 AS depth${down ? ", ARRAY[lower(i.name), i.id::text] AS path" : ""}
    FROM "Institution" i WHERE i.id = ${start}
  UNION ALL
  SELECT n.id, n.name, n.kind::text, n."parentId", t.depth + 1${down ? ", t.path || ARRAY[lower(n.name), n.id::text]" : ""}
    FROM "Institution" n JOIN ${direction} t ON ${next}
   WHERE t.depth < ${MAX_DEPTH}
)`;
}
