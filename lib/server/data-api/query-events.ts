// The Data API's hot path: one SQL statement per page over ChangeEvent, in (txid, seq) order, cut
// at the snapshot horizon so paging never skips an event whose transaction commits late
// (docs/decisions/003-gap-free-paging.md).
import { database } from "@/lib/db";
import type { TEntityName, TEventKind } from "@/lib/validations/data-api";
import { ENTITY_NAMES, EVENT_KINDS } from "@/lib/validations/data-api";
import type { TCursorPosition } from "./cursor";

export interface TEventFilters {
  /** Institutions whose events are read (the org and its descendants). */
  institutionIds: string[];
  /** Omitted or complete: no entity condition. */
  entities?: TEntityName[];
  kinds?: TEventKind[];
  userId?: string;
  periodCode?: string;
  /** occurredAt ≥ from */
  from?: Date;
  /** occurredAt < until */
  until?: Date;
}

export interface TEventRow {
  id: string;
  entity: TEntityName;
  kind: TEventKind;
  /** The record snapshot as the database writes jsonb: JSON text, parsed only when needed. */
  record: string;
  /** occurredAt in milliseconds since the epoch (with the microseconds as a fraction). */
  occurredAtMs: number;
  txid: string;
  seq: string;
}

export interface TEventPage {
  rows: TEventRow[];
  /** More matching events exist below the horizon right now. */
  hasMore: boolean;
  /**
   * The oldest transaction of this database still running at the statement's snapshot (HORIZON_SQL):
   * every transaction of this database with a smaller id had ended when the page was read, and
   * every one that had not is ≥ it.
   */
  horizon: string;
}

// The record stays JSON text and the time a number: a page's rows are spliced into the response
// (read-data-page.ts), and parsing 1,000 jsonb values and timestamps is most of a page's CPU.
const COLUMNS = `e.id, e.entity::text AS entity, e.kind::text AS kind, e.record::text AS record,
  (extract(epoch FROM e."occurredAt") * 1000)::float8 AS "occurredAtMs", e.txid, e.seq`;

/**
 * The horizon: the oldest transaction of this database still running when the statement's
 * snapshot was taken, or the snapshot's xmax when none is. pg_snapshot_xmin alone would be
 * cluster-wide, so a write left open in another database of the server would hold the feed back;
 * a running xid is set aside only when pg_stat_activity shows it belongs to another database (a
 * transaction never changes database, and an xid it cannot place counts as ours), which keeps the
 * guarantee of docs/decisions/003-gap-free-paging.md. backend_xid is the 32-bit form of the xid8.
 */
export const HORIZON_SQL = `SELECT COALESCE(
    (SELECT min(x) FROM pg_snapshot_xip(s.snap) x
      WHERE x::text::bigint % 4294967296 NOT IN (
        SELECT a.backend_xid::text::bigint FROM pg_stat_get_activity(NULL) a
        WHERE a.backend_xid IS NOT NULL AND a.datid <> (SELECT oid FROM pg_database WHERE datname = current_database()))),
    pg_snapshot_xmax(s.snap))::text::bigint AS xmin
  FROM (SELECT pg_current_snapshot() AS snap) s`;

/** The WHERE conditions shared by the list and the summary (parameters appended to `params`). */
export function eventConditions(filters: Omit<TEventFilters, "institutionIds">, params: unknown[]): string[] {
  const p = (value: unknown) => `$${params.push(value)}`;
  const where: string[] = [];
  const { entities, kinds } = filters;
  // A single value is written as "=" so the planner can use the (institutionId, entity, txid, seq)
  // index in order; arrays travel as text[] (PGlite cannot serialise an enum[] parameter).
  if (entities && entities.length < ENTITY_NAMES.length) {
    where.push(entities.length === 1 ? `e.entity = ${p(entities[0])}::"EntityName"` : `e.entity = ANY(${p(entities)}::text[]::"EntityName"[])`);
  }
  if (kinds && kinds.length < EVENT_KINDS.length) {
    where.push(kinds.length === 1 ? `e.kind = ${p(kinds[0])}::"ChangeKind"` : `e.kind = ANY(${p(kinds)}::text[]::"ChangeKind"[])`);
  }
  if (filters.userId) where.push(`e."profileIds" @> ARRAY[${p(filters.userId)}]::text[]`);
  // Entities with a term (periodo, turma, turmaAluno, disciplinaProfessor) are narrowed to it; the
  // others (usuario, disciplina, responsavelAluno) have no term and pass (docs/data-api.md).
  if (filters.periodCode) where.push(`(e."periodCode" = ${p(filters.periodCode)} OR e."periodCode" IS NULL)`);
  if (filters.from) where.push(`e."occurredAt" >= ${p(filters.from.toISOString())}::timestamptz`);
  if (filters.until) where.push(`e."occurredAt" < ${p(filters.until.toISOString())}::timestamptz`);
  return where;
}

/**
 * The horizon of a read with `min_date` (docs/decisions/013-min-date-polling.md): also below
 * every event that started after the oldest transaction of this database still running (less a
 * second, for a transaction that has begun but not yet shown in pg_stat_activity). Every event
 * such a read returns is then older (`ocorridoEm`) than any event that can become visible later,
 * so a client polling with min_date = the last ocorridoEm it saw loses nothing; and the cut stays
 * a position, so paging and `cursorRetomada` keep their guarantee. `ids` is the parameter of
 * the institution list. occurredAt is the writing transaction's start (the column's default).
 */
function timeSafeHorizonSql(ids: string): string {
  return `SELECT LEAST(h0.xmin, COALESCE((
      SELECT min(e.txid) FROM "ChangeEvent" e
      WHERE e."institutionId" = ANY(${ids}::uuid[]) AND e.txid < h0.xmin
        AND e."occurredAt" >= (
          SELECT LEAST(min(a.xact_start), now()) - interval '1 second' FROM pg_stat_get_activity(NULL) a
          WHERE a.datid = (SELECT oid FROM pg_database WHERE datname = current_database()) AND a.xact_start IS NOT NULL)
    ), h0.xmin)) AS xmin
    FROM (${HORIZON_SQL}) h0`;
}

/** The SQL of one page; exported for the benchmark's "equivalent raw SQL" and for EXPLAIN. */
export function buildEventPageQuery(options: { filters: TEventFilters; after?: TCursorPosition; limit: number; horizon?: string }): { sql: string; params: unknown[] } {
  const { filters, after, limit } = options;
  const params: unknown[] = [];
  const p = (value: unknown) => `$${params.push(value)}`;
  // A read that spans several statements (a whole feed, streamed) keeps the first one's horizon:
  // every transaction below it had ended then, so each statement sees the same events below it.
  const horizonSql = options.horizon !== undefined ? `SELECT ${p(options.horizon)}::bigint AS xmin` : filters.from ? timeSafeHorizonSql(p(filters.institutionIds)) : HORIZON_SQL;
  const where = eventConditions(filters, params);
  if (after) where.push(`(e.txid, e.seq) > (${p(after.txid)}::bigint, ${p(after.seq)}::bigint)`);
  // The horizon is computed once (h) and read by every branch, so the cut and the horizon the
  // response reports are the same number.
  where.push(`e.txid < (SELECT xmin FROM h)`);
  const take = p(limit + 1);
  const ids = filters.institutionIds;
  const branch = (institution: string) =>
    `(SELECT ${COLUMNS} FROM "ChangeEvent" e WHERE ${[institution, ...where].join(" AND ")} ORDER BY e.txid, e.seq LIMIT ${take})`;

  let page: string;
  if (filters.userId) {
    // A person's events are few: the GIN index on profileIds finds them across the subtree.
    page = branch(`e."institutionId" = ANY(${p(ids)}::uuid[])`);
  } else {
    // One ordered index scan per institution, merged (Merge Append) and cut at the limit: a page
    // reads about limit + (number of institutions) rows, however large the subtree's history.
    const list = p(ids);
    page = ids.map((_, i) => branch(`e."institutionId" = (${list}::uuid[])[${i + 1}]`)).join(" UNION ALL ");
  }
  // LEFT JOIN: the horizon comes back even when the page is empty.
  const sql = `WITH h AS MATERIALIZED (${horizonSql})
    SELECT h.xmin::text AS horizon, u.id, u.entity, u.kind, u.record, u."occurredAtMs", u.txid::text AS txid, u.seq::text AS seq
    FROM h LEFT JOIN (SELECT * FROM (${page}) b ORDER BY b.txid, b.seq LIMIT ${take}) u ON true
    ORDER BY u.txid, u.seq`;
  return { sql, params };
}

export async function queryEvents(options: { filters: TEventFilters; after?: TCursorPosition; limit: number; horizon?: string }): Promise<TEventPage> {
  const { sql, params } = buildEventPageQuery(options);
  const result = await database().sql.query<TEventRow & { horizon: string; id: string | null }>(sql, params);
  const horizon = result[0]!.horizon;
  const rows = result.filter((r) => r.id !== null);
  const hasMore = rows.length > options.limit;
  if (hasMore) rows.length = options.limit;
  return { rows, hasMore, horizon };
}
