// The Data API's hot path: one SQL statement per page over ChangeEvent, in (txid, seq) order, cut
// at the snapshot horizon so paging never skips an event whose transaction commits late
// (docs/decisions/003-gap-free-paging.md).
import { database, type Database } from "@/lib/server/db/database";
import { readPrimaryFromNowOn } from "@/lib/server/db/replicas";
import { Role } from "@/lib/generated/prisma/enums";
import type { TEntityName, TEventKind, TPersonalAttribute } from "@/lib/validations/data-api";
import { ENTITY_NAMES, EVENT_KINDS, PERSONAL_ATTRIBUTES } from "@/lib/validations/data-api";
import type { TCursorPosition } from "@/lib/data-api/cursor";

/**
 * What one application is shown of the event log: its history under today's rules
 * (docs/decisions/016-history-under-todays-rules.md). The list, the summary and the /gestao
 * preview apply the same view through eventConditions, so they count and show the same events.
 */
export interface TFeedView {
  /**
   * Per institution of the read (every one of the subtree): the horizon at which the application's
   * access to it began (ApplicationAccess.grantedTxid); "0" for the whole history.
   */
  grantedTxid: Record<string, string>;
  /**
   * The personal attributes the application receives (plain or pseudonymized) in a `usuario`
   * record whose `perfil` is `role`. An update that changed only other personal attributes is not
   * delivered; a change of a non-personal field always is.
   */
  visible: (role: Role) => readonly TPersonalAttribute[];
}

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
  /** The application's view; omitted for the hub's own readers (every event). */
  view?: TFeedView;
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
const columns = (kind: string) => `e.id, e.entity::text AS entity, ${kind} AS kind, e.record, e."recordId",
  (extract(epoch FROM e."occurredAt") * 1000)::float8 AS "occurredAtMs", e.txid, e.seq`;

/**
 * A `usuario` record as served: the stored non-personal fields plus the person's CURRENT values,
 * looked up when the page is read (lib/server/school-data/snapshots.ts). A deleted profile or
 * person adds nothing, and a superseded value is never served. The statement returns the values
 * beside the stored record's text and queryEvents appends them as members (withPersonalValues):
 * merging in SQL (`record || jsonb_build_object(…)`, then text) cost about 2 ms per page.
 *
 * The page's people are looked up once for all its usuario rows, after the page is cut (one
 * index scan over the page's profile ids): a plain join may be hashed over every Profile and
 * Person (50 ms per page at 100,000 students). `profileIds`: an SQL array expression; OneRoster's
 * users and demographics read their people with it too (read-rostering.ts, pageWithNeeds).
 */
export const peopleSql = (profileIds: string) => `SELECT pr.id AS "profileId", p.name, to_char(p."birthDate", 'YYYY-MM-DD') AS "birthDate", p.cpf, p.email, p.phone
    FROM "Profile" pr JOIN "Person" p ON p.id = pr."personId" WHERE pr.id = ANY (${profileIds})`;
const PEOPLE_CTE = `pe AS MATERIALIZED (${peopleSql(`ARRAY(SELECT u."recordId" FROM u WHERE u.entity = 'usuario')`)})`;
/** The people of a list of profile ids ($1), for queryEventsThenPeople: one text, kept prepared. */
export const PEOPLE_SQL = peopleSql("$1::uuid[]");
/** peopleSql's columns, read from its CTE `pe`. */
export const PERSON_COLUMNS = `pe."profileId", pe.name, pe."birthDate", pe.cpf, pe.email, pe.phone`;

/** A profile's person as the page shows it; `profileId` null when the row is no usuario or its profile is gone. */
export interface TPersonColumns {
  profileId: string | null;
  name: string | null;
  birthDate: string | null;
  cpf: string | null;
  email: string | null;
  phone: string | null;
}

const member = (name: string, value: string | null) => `"${name}": ${value === null ? "null" : JSON.stringify(value)}`;

/**
 * The record text with the person's values appended, in the layout PostgreSQL writes jsonb
 * (`{"key": value, "key": value}`), which the privacy filter's text path reads (privacy.ts).
 */
function withPersonalValues(record: string, p: TPersonColumns): string {
  const members = [
    member("nome_usuario", p.name),
    member("idade", p.birthDate),
    member("cpf", p.cpf),
    member("email_usuario", p.email),
    member("telefone", p.phone),
  ].join(", ");
  return record.length > 2 ? `${record.slice(0, -1)}, ${members}}` : `{${members}}`;
}

/**
 * The horizon: the oldest transaction of this database still running when the statement's
 * snapshot was taken, or the snapshot's xmax when none is. pg_snapshot_xmin alone would be
 * cluster-wide, so a write left open in another database of the server would hold the feed back;
 * a running xid is set aside only when pg_stat_activity shows it belongs to another database (a
 * transaction never changes database, and an xid it cannot place counts as ours), which keeps the
 * guarantee of docs/decisions/003-gap-free-paging.md. It is a database function
 * (prisma/migrations/20261126100000_history_under_todays_rules) because ApplicationAccess's
 * grantedTxid takes the same value as its default.
 */
export const HORIZON_SQL = `SELECT "hub_feed_horizon"() AS xmin`;

/**
 * Decision 013's moment T as a database function (prisma/migrations/20261201090000_feed_on_replicas):
 * on the primary, the start of the oldest transaction of this database still running (or now),
 * less a second; on a read replica, which cannot see the primary's sessions, the same value as the
 * primary's last beat it replayed recorded it (docs/decisions/042-read-replicas.md).
 */
const TIME_SAFE_MOMENT = `SELECT "hub_time_safe_moment"() AS at`;

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
    const kind = filters.view ? eventKindSql(filters.view, p) : null;
    if (kind) where.push(`${kind} = ANY(${p(kinds)}::text[])`);
    else where.push(kinds.length === 1 ? `e.kind = ${p(kinds[0])}::"ChangeKind"` : `e.kind = ANY(${p(kinds)}::text[]::"ChangeKind"[])`);
  }
  // A profile is profileIds[1], or [2] in a guardian link (ChangeEvent_profile{1,2}_txid_seq_idx).
  if (filters.userId) where.push(profileCondition(p(filters.userId)));
  // Entities with a term (periodo, turma, turmaAluno, disciplinaProfessor) are narrowed to it; the
  // others (usuario, disciplina, responsavelAluno) have no term and pass (docs/data-api.md).
  if (filters.periodCode) where.push(`(e."periodCode" = ${p(filters.periodCode)} OR e."periodCode" IS NULL)`);
  if (filters.from) {
    const from = p(filters.from.toISOString());
    // Written as a row comparison: with the horizon's `txid <` beside a plain `txid >=`, the planner
    // estimates a narrow range and reads all of it into a sort instead of the ordered scan.
    where.push(`e."occurredAt" >= ${from}::timestamptz`, `(e.txid, e.seq) >= (${feedFloorSql(from)}, 0)`);
  }
  if (filters.until) where.push(`e."occurredAt" < ${p(filters.until.toISOString())}::timestamptz`);
  if (filters.view) where.push(...feedViewConditions(filters.view, p));
  return where;
}

const ROLES = Object.values(Role);

/** The events of profile `id` (a parameter): the first of profileIds, or the second (a guardian link's student). */
export const profileCondition = (id: string) => `(e."profileIds"[1] = ${id} OR e."profileIds"[2] = ${id})`;

/**
 * A position below every event of a transaction that started at or after `from` (a parameter):
 * the feed clock's last entry at or before it (prisma/migrations/20261126140100_feed_clock_and_counts,
 * docs/decisions/018-feed-clock-and-maintained-counts.md). One index probe; an ordered scan that
 * starts there reads, before its first match, only events of transactions that were running when
 * that entry was written. occurredAt is kept to the millisecond (rounded), hence the margin.
 */
export function feedFloorSql(from: string): string {
  return `COALESCE((SELECT c.txid FROM "FeedClock" c WHERE c."at" <= (${from})::timestamptz - interval '1 millisecond' ORDER BY c."at" DESC LIMIT 1), 0)`;
}

/**
 * The txid where the events of `institution` (SQL) that started at or after `from` (SQL, a
 * timestamptz) begin in feed order: a position no such event is below. From `floor` (SQL: the
 * feed clock's floor for `from`, feedFloorSql, computed once by the caller for every
 * institution), it hops a transaction at a time (one index probe each) over the events of transactions
 * that started before `from` but took their txid after the floor, i.e. were in flight at `from`:
 * a transaction's events all have its start as occurredAt (the column's default, decision 013),
 * so the first event of a txid tells whether any of them can match. The scan that follows then
 * reads no event of those transactions, however many they wrote (a CSV import of thousands of
 * rows, say), and the hops are as many as the transactions in flight: bounded by the writers
 * running at `from`, not by the history (docs/decisions/018-feed-clock-and-maintained-counts.md).
 */
export function feedStartSql(institution: string, from: string, floor: string): string {
  const next = (position: string) =>
    `SELECT e.txid, e."occurredAt" AS at FROM "ChangeEvent" e WHERE e."institutionId" = ${institution} AND (e.txid, e.seq) >= (${position}, 0) ORDER BY e.txid, e.seq LIMIT 1`;
  return `(WITH RECURSIVE hop AS ((${next(floor)})
      UNION ALL SELECT n.txid, n.at FROM hop, LATERAL (${next("hop.txid + 1")}) n WHERE hop.at < (${from})::timestamptz)
    SELECT COALESCE(CASE WHEN bool_or(hop.at >= (${from})::timestamptz) THEN max(hop.txid) ELSE max(hop.txid) + 1 END, ${floor}) FROM hop)`;
}

/** The row's grant (TFeedView.grantedTxid) as SQL, or null when the whole history is shown. */
function grantSql(view: TFeedView, p: (value: unknown) => string): string | null {
  const ids = Object.keys(view.grantedTxid);
  const txids = ids.map((id) => view.grantedTxid[id]!);
  const distinct = new Set(txids);
  if (distinct.size === 0 || (distinct.size === 1 && distinct.has("0"))) return null;
  return distinct.size === 1 ? `${p(txids[0])}::bigint` : `(${p(txids)}::bigint[])[array_position(${p(ids)}::uuid[], e."institutionId")]`;
}

/**
 * The kind an event has in an application's feed (text), or null when it is the stored one. An
 * update from before the grant is the record's current state, and the application has never seen
 * the record: it is an insert for it. The list, the `event` filter and the summary's counts all
 * read this, so they agree.
 */
export function eventKindSql(view: TFeedView, p: (value: unknown) => string): string | null {
  const grant = grantSql(view, p);
  return grant ? `(CASE WHEN e.kind = 'update' AND e.txid < ${grant} THEN 'insert' ELSE e.kind::text END)` : null;
}

/**
 * The one place that decides which events an application is shown (docs/decisions/016):
 * - history: an event before the application's access began is shown only if it was still the
 *   record's latest then (not superseded before the grant) and is not a delete, so the feed starts
 *   with the current state; every event from the grant on is shown. Both facts are fixed when the
 *   grant is made (the grant is a horizon: every transaction below it had ended), so the choice
 *   never changes under a paging client.
 * - visibility: an update from the grant on is shown only if it changed something the
 *   application receives for the record's role (a non-personal field always counts). `changed`
 *   empty: not an update, or written before the column existed: shown.
 */
function feedViewConditions(view: TFeedView, p: (value: unknown) => string): string[] {
  const where: string[] = [];
  const grant = grantSql(view, p);
  if (grant) where.push(`(e.txid >= ${grant} OR (e.kind <> 'delete' AND (e."supersededTxid" IS NULL OR e."supersededTxid" >= ${grant})))`);
  const hidden = ROLES.map((role) => PERSONAL_ATTRIBUTES.filter((a) => !view.visible(role).includes(a)));
  if (hidden.some((h) => h.length > 0)) {
    const same = hidden.every((h) => h.join() === hidden[0]!.join());
    const hiddenSql = same
      ? `${p(hidden[0])}::text[]`
      : `(CASE e.record->>'perfil' ${ROLES.map((role, i) => `WHEN '${role}' THEN ${p(hidden[i])}::text[]`).join(" ")} ELSE ${p(PERSONAL_ATTRIBUTES)}::text[] END)`;
    // Before the grant the history condition alone decides: the record's latest event there is
    // its current state, new to the application, whatever that update changed.
    where.push(`(cardinality(e.changed) = 0 OR NOT (e.changed <@ ${hiddenSql})${grant ? ` OR e.txid < ${grant}` : ""})`);
  }
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
export function timeSafeHorizonSql(ids: string): string {
  // The scan starts at the feed clock's floor for T (decision 018): the last second of the log
  // (at a million students a min(txid) walked the whole (institutionId, txid) index filtering
  // occurredAt: 1.8 s).
  // Per institution, the first such event in (txid, seq) order (LIMIT 1): a min() over all of them
  // was estimated at a third of the log, which also made PostgreSQL JIT-compile the statement
  // (about 90 ms) at a million students.
  return `SELECT LEAST(h0.xmin, COALESCE((
      SELECT min(f.txid) FROM unnest(${ids}::uuid[]) AS i(id), LATERAL (
        SELECT e.txid FROM "ChangeEvent" e
        WHERE e."institutionId" = i.id AND e.txid < h0.xmin
          AND e."occurredAt" >= t.at AND (e.txid, e.seq) >= (${feedStartSql("i.id", "t.at", "t.floor")}, 0)
        ORDER BY e.txid, e.seq LIMIT 1) f
    ), h0.xmin)) AS xmin
    FROM (${HORIZON_SQL}) h0, (SELECT t0.at, ${feedFloorSql("t0.at")} AS floor FROM (${TIME_SAFE_MOMENT_SQL}) t0) t`;
}

/**
 * T of decision 013, as one row with one column `at`: the start of the oldest transaction of this
 * database still running, or now when there is none, less one second (a transaction that has begun
 * but is not yet shown in pg_stat_activity). Every transaction that started before T has ended;
 * every one still to commit stamps its events at T or later. Also OneRoster's cut
 * (lib/server/oneroster/rostering-sources.ts), which reads the state as of T.
 */
export const TIME_SAFE_MOMENT_SQL = TIME_SAFE_MOMENT;

interface TPageOptions {
  filters: TEventFilters;
  after?: TCursorPosition;
  limit: number;
  /** The horizon of an earlier statement of the same read (a whole feed, streamed). */
  horizon?: string;
  /** The server every statement of this read uses (a whole feed keeps its first one's); default database("may-lag"). */
  source?: Database;
}

/**
 * Whether a page read on `source` at `horizon` may differ from the primary's: a replica that has not
 * ended every transaction below an application's grant may lack a supersede the grant's history
 * depends on (decision 016), so such a read goes to the primary (docs/decisions/042-read-replicas.md).
 * Without a grant, or on the primary, any horizon is right.
 */
function behindAGrant(source: Database, options: TPageOptions, horizon: string): boolean {
  if (options.horizon !== undefined || !database().replicas?.isReplica(source)) return false;
  return Object.values(options.filters.view?.grantedTxid ?? {}).some((g) => BigInt(g) > BigInt(horizon));
}

/**
 * The SQL of one page; exported for the benchmark's "equivalent raw SQL" and for EXPLAIN. With
 * `people: false` the usuario rows' people are not looked up: the statement returns each row's
 * `recordId`, and queryEventsThenPeople looks them up in a second statement.
 */
export function buildEventPageQuery(options: TPageOptions & { people?: boolean }): { sql: string; params: unknown[] } {
  const { filters, after, limit } = options;
  const people = options.people ?? true;
  const params: unknown[] = [];
  const p = (value: unknown) => `$${params.push(value)}`;
  // A read that spans several statements (a whole feed, streamed) keeps the first one's horizon:
  // every transaction below it had ended then, so each statement sees the same events below it.
  const horizonSql = options.horizon !== undefined ? `SELECT ${p(options.horizon)}::bigint AS xmin` : filters.from ? timeSafeHorizonSql(p(filters.institutionIds)) : HORIZON_SQL;
  // user_id is read by its own ordered scans below, not as a condition of each branch. Without
  // it, each institution's scan starts where its events from min_date begin (feedStartSql)
  // instead of at the feed clock's floor.
  const positioned = filters.from !== undefined && !filters.userId;
  const where = eventConditions({ ...filters, userId: undefined, from: positioned ? undefined : filters.from }, params);
  const from = positioned ? p(filters.from!.toISOString()) : undefined;
  if (from) where.push(`e."occurredAt" >= ${from}::timestamptz`);
  if (after) where.push(`(e.txid, e.seq) > (${p(after.txid)}::bigint, ${p(after.seq)}::bigint)`);
  // The horizon is computed once (h) and read by every branch, so the cut and the horizon the
  // response reports are the same number.
  where.push(`e.txid < (SELECT xmin FROM h)`);
  const take = p(limit + 1);
  const ids = filters.institutionIds;
  const COLUMNS = columns((filters.view && eventKindSql(filters.view, p)) ?? "e.kind::text");
  const branch = (...conditions: string[]) =>
    `(SELECT ${COLUMNS} FROM "ChangeEvent" e WHERE ${[...conditions, ...where].join(" AND ")} ORDER BY e.txid, e.seq LIMIT ${take})`;

  let page: string;
  if (filters.userId) {
    // Two ordered scans of the profile's events (as profileIds[1], and as [2] of a guardian link,
    // never both), merged and cut at the limit like the institutions' below: a page reads about
    // limit rows however long the profile's history. The GIN index had to fetch and sort them all.
    const user = p(filters.userId);
    const list = p(ids);
    page = [`e."profileIds"[1] = ${user}`, `e."profileIds"[2] = ${user} AND e."profileIds"[1] <> ${user}`]
      .map((position) => branch(`${position} AND e."institutionId" = ANY(${list}::uuid[])`))
      .join(" UNION ALL ");
  } else {
    // One ordered index scan per institution, merged (Merge Append) and cut at the limit: a page
    // reads about limit + (number of institutions) rows, however large the subtree's history.
    const list = p(ids);
    page = ids
      .map((_, i) => {
        const institution = `(${list}::uuid[])[${i + 1}]`;
        const start = from ? [`(e.txid, e.seq) >= (${feedStartSql(institution, from, "(SELECT fl.txid FROM fl)")}, 0)`] : [];
        return branch(`e."institutionId" = ${institution}`, ...start);
      })
      .join(" UNION ALL ");
  }
  // LEFT JOIN: the horizon comes back even when the page is empty.
  const rowColumns = `h.xmin::text AS horizon, u.id, u.entity, u.kind, u.record::text AS record, u."occurredAtMs", u.txid::text AS txid, u.seq::text AS seq`;
  // The feed clock's floor for min_date, read once for every institution's start (fl).
  const ctes = [
    `h AS MATERIALIZED (${horizonSql})`,
    ...(from ? [`fl AS MATERIALIZED (SELECT ${feedFloorSql(from)} AS txid)`] : []),
    `u AS MATERIALIZED (SELECT * FROM (${page}) b ORDER BY b.txid, b.seq LIMIT ${take})`,
  ];
  const sql = people
    ? `WITH ${[...ctes, PEOPLE_CTE].join(",\n    ")}
    SELECT ${rowColumns}, ${PERSON_COLUMNS}
    FROM h LEFT JOIN u ON true LEFT JOIN pe ON u.entity = 'usuario' AND pe."profileId" = u."recordId"
    ORDER BY u.txid, u.seq`
    : `WITH ${ctes.join(",\n    ")}
    SELECT ${rowColumns}, u."recordId"
    FROM h LEFT JOIN u ON true
    ORDER BY u.txid, u.seq`;
  return { sql, params };
}

type TResultRow = TEventRow & { horizon: string; id: string | null; recordId?: string };

/** The page of a statement's rows (the first row always carries the horizon; `id` is null on an empty page). */
function toPage<R extends TResultRow>(result: R[], limit: number, record: (row: R) => string): TEventPage {
  const horizon = result[0]!.horizon;
  const rows: TEventRow[] = [];
  for (const r of result) {
    if (r.id === null) continue;
    rows.push({ id: r.id, entity: r.entity, kind: r.kind, record: record(r), occurredAtMs: r.occurredAtMs, txid: r.txid, seq: r.seq });
  }
  const hasMore = rows.length > limit;
  if (hasMore) rows.length = limit;
  return { rows, hasMore, horizon };
}

/** One page in one statement, its people included: one round trip (a page of the API). */
export async function queryEvents(options: TPageOptions): Promise<TEventPage> {
  const source = options.source ?? database("may-lag");
  const { sql, params } = buildEventPageQuery(options);
  const result = await source.sql.query<TResultRow & TPersonColumns>(sql, params);
  if (behindAGrant(source, options, result[0]!.horizon)) return queryEvents({ ...options, source: readPrimaryFromNowOn(database()) });
  return toPage(result, options.limit, (r) => (r.profileId === null ? r.record : withPersonalValues(r.record, r)));
}

/** A page whose usuario rows get their people's current values when `people` settles. */
export interface TEventPageThenPeople extends TEventPage {
  /** The server that answered: the read's next statements use it too. */
  source: Database;
  /**
   * Settles when every usuario row's `record` carries its person's current values (set in
   * place, by a second statement on another connection). Until then those records are the
   * stored ones: read them only after it.
   */
  people: Promise<void>;
}

/**
 * One page in two statements: the events, then their people (decision 016's current values).
 * The caller has the rows, positions and horizon as soon as the events are read: the whole feed
 * reads its next chunk (whose cursor is this chunk's last position) while this chunk's people
 * are looked up, so two statements run at once on two connections. At a million students the
 * people are most of a usuario chunk's database time (docs/performance.md, "The whole feed in
 * two statements a chunk"). A single page stays one statement (queryEvents): split, it measured
 * 5–6 ms slower.
 */
export async function queryEventsThenPeople(options: TPageOptions): Promise<TEventPageThenPeople> {
  const source = options.source ?? database("may-lag");
  const { sql, params } = buildEventPageQuery({ ...options, people: false });
  // Prepared: a whole feed runs this text once per chunk (thousands of times at a million
  // students), and PostgreSQL settles on a generic plan after five, instead of planning each
  // chunk's eleven-branch statement anew (about 3 ms of its time a chunk, docs/performance.md).
  const result = await source.sql.query<TResultRow>(sql, params, { prepared: true });
  if (behindAGrant(source, options, result[0]!.horizon)) return queryEventsThenPeople({ ...options, source: readPrimaryFromNowOn(database()) });
  const page = toPage(result, options.limit, (r) => r.record);
  // page.rows[i] is the i-th row of the result that has an event.
  const found = result.filter((r) => r.id !== null);
  const usuario = page.rows.flatMap((row, i) => (row.entity === "usuario" ? [{ row, profileId: found[i]!.recordId! }] : []));
  const people = (async () => {
    if (usuario.length === 0) return;
    const profileIds = [...new Set(usuario.map((u) => u.profileId))];
    const byProfile = new Map((await source.sql.query<TPersonColumns & { profileId: string }>(PEOPLE_SQL, [profileIds], { prepared: true })).map((p) => [p.profileId, p]));
    for (const { row, profileId } of usuario) {
      const person = byProfile.get(profileId);
      if (person) row.record = withPersonalValues(row.record, person);
    }
  })();
  // Awaited by the caller; a caller that has gone (a client that disconnected) never will.
  people.catch(() => undefined);
  return { ...page, people, source };
}
