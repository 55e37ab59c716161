// GET on the OneRoster 1.2 Rostering service: authorise, resolve what the application reads, run
// the query language against the path's source, apply the sharing rule and the application's ids
// to the page, shape the objects, write the access log. Errors are the binding's status payload.
// The data statements all run on the context's server, `database("may-lag")` taken once per read
// or export: a replica within the lag bound, or the primary (docs/decisions/042-read-replicas.md).
import { env } from "@/lib/env";
import { RETRY_AFTER_SECONDS } from "@/lib/errors";
import { parseFields } from "@/lib/oneroster/fields";
import { compileFilter, modifiedSince, onlyEquals, pinsField } from "@/lib/oneroster/filter-compile";
import { parseFilter } from "@/lib/oneroster/filter-parse";
import { pagingHeaders } from "@/lib/oneroster/links";
import {
  academicSessionObject,
  classObject,
  courseObject,
  demographicsObject,
  enrollmentObject,
  orgObject,
  ROSTERING_PATH,
  userObject,
  type THubRole,
} from "@/lib/oneroster/objects";
import { parsePaging } from "@/lib/oneroster/paging";
import { parseSortKey } from "@/lib/oneroster/sort";
import { asOneRosterError, OneRosterError, quoteInput, statusPayload } from "@/lib/oneroster/status";
import { logAccess } from "@/lib/server/audit/log-access";
import { database, type Database } from "@/lib/server/db/database";
import { isDatabaseUnavailable, isStatementCancelled, reportDatabaseUnavailable } from "@/lib/server/db/unavailable";
import { readPrimaryFromNowOn, readsMayLag } from "@/lib/server/db/replicas";
import { configurationForRecord, recordFilterByRole } from "@/lib/server/data-api/privacy";
import { PERSON_COLUMNS, peopleSql, TIME_SAFE_MOMENT_SQL, type TPersonColumns } from "@/lib/server/data-api/query-events";
import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
import { pairwiseIds, type TPairwiseIds } from "@/lib/server/privacy/pairwise-ids";
import { log } from "@/lib/server/log.mjs";
import { PROFILE_ROLES, type TPersonalAttribute } from "@/lib/validations/data-api";
import { pageShape, positionBefore, rememberPosition, type TPagePosition } from "./page-positions";
import { resolveOneRosterReach, type TOneRosterReach } from "./resolve-oneroster-reach";
import { collectionDef, rosteringRoute, SELECTABLE_FIELDS, type TCollectionDef, type TCondition, type TObjectKind, type TPathId, type TRosteringRoute } from "./rostering-routes";
import { BASE_PARAMS, CHECKED, COUNTED_ROLES, ENTITIES_OF, EVENT_ENTITIES, PINNING_FIELDS, fieldMapFor, READ_BY_INSTITUTION, sourceSql, TOMBSTONE_DAYS, tombstoneCountSql, type TFieldContext, type TFieldMapName, type TInstitutionScope } from "./rostering-sources";
import { applicationGone, bearerChallenge, requireScope, verifyOneRosterBearer, type TOneRosterClient } from "./verify-bearer";

/** Up to this many (institution, entity) scans a page merges in one statement's Merge Append; past it, lateral scans. */
const MAX_MERGED_SCANS = 64;

/** A page of more scans than this, under a lower bound on dateLastModified, first leaves out the scans with no change since it. */
const PRUNED_ABOVE = 4;

/**
 * Which of the read's (institution, entity) scans have an event from the filter's lower bound on
 * dateLastModified ($3) to T ($4): a record matches only if its latest event before T is after
 * the bound, so a scan without one finds nothing. One index probe a scan ("ChangeEvent"'s
 * (institutionId, occurredAt)), stopped at its first event: as EXISTS, PostgreSQL read every
 * event of the window once for all scans, a cost that grows with the window.
 */
const SCANS_WITH_CHANGES_SQL = `
SELECT i.n::int AS n, k.entity FROM unnest($1::uuid[]) WITH ORDINALITY AS i(id, n) CROSS JOIN unnest($2::text[]) AS k(entity)
 CROSS JOIN LATERAL (SELECT 1 FROM "ChangeEvent" e
                      WHERE e."institutionId" = i.id AND e.entity = k.entity::"EntityName"
                        AND e."occurredAt" >= $3::timestamptz AND e."occurredAt" < $4::timestamptz LIMIT 1) AS changed
 ORDER BY i.n, k.entity`;

/** The largest page served; a larger `limit` is served this many (lib/oneroster/paging.ts). */
export const MAX_LIMIT = 1000;

export interface TRosteringRequest {
  /** The path after the service's base, split on "/" and percent-decoded (rosteringSegments); null when it cannot be decoded. */
  segments: readonly string[] | null;
  query: URLSearchParams;
  authorization: string | null;
}

export interface TRosteringResponse {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** The Hub's base URL without a trailing slash: GUIDRefs' hrefs start with it. */
export const hubBaseUrl = () => env().HUB_BASE_URL.replace(/\/$/, "");

const FIELD_MAP_OF: Readonly<Record<TObjectKind, TFieldMapName>> = {
  org: "orgs",
  academicSession: "academicSessions",
  course: "courses",
  class: "classes",
  enrollment: "enrollments",
  user: "users",
  demographics: "demographics",
};

const JSON_HEADERS = { "Content-Type": "application/json", "Cache-Control": "no-store" };

export type TRow = Record<string, unknown> & { sid: string; deleted: boolean; modified: Date | string; inst: string };

/** Who reads and what it reads: the REST binding's request, or a CSV export (export-rostering.ts). */
export interface TReadContext {
  /** The application whose pseudonyms the rule makes (a manager's export shows no pseudonym). */
  applicationId: string;
  reach: TOneRosterReach;
  /** The reader's ids of people: the application's pairwise ids, or the Hub's own for a manager. */
  ids: Pick<TPairwiseIds, "toPartnerMany" | "toGlobal">;
  baseUrl: string;
  cut: string;
  /** The server every data statement of the read uses (a replica within the lag bound, or the primary). */
  db: Database;
}

/**
 * An id of the path as SQL: a uuid parameter (the Hub's id behind a person's pairwise id), or NULL
 * when the text is no UUID, which no column equals: the path names nothing.
 */
function boundId(params: unknown[], ids: TReadContext["ids"]) {
  return (id: TPathId): string => {
    const value = id.person ? ids.toGlobal(id.value) : isUuidText(id.value.toLowerCase()) ? id.value.toLowerCase() : null;
    if (value === null) return "NULL::uuid";
    params.push(value);
    return `$${params.length}::uuid`;
  };
}

/** The parameters every source reads ($1 institutions, $2 the moment T, $3 the tombstone floor). */
function baseParams(context: TReadContext): unknown[] {
  const floor = new Date(Date.now() - TOMBSTONE_DAYS * 86_400_000);
  const params = [context.reach.ids, context.cut, floor.toISOString()];
  if (params.length !== BASE_PARAMS) throw new Error("source parameters out of step");
  return params;
}

/**
 * Per personal attribute, the (institution, role) pairs where the application sees it in plain,
 * as an SQL condition on `src`. The pairs are written into the statement as a literal (they are
 * UUIDs read from the database and the fixed role names, checked here), not bound: a filter
 * compiles against a copy of the parameters, and a literal has no place to lose.
 */
function plainConditions(reach: TOneRosterReach): TFieldContext["plain"] {
  const cache = new Map<TPersonalAttribute, string>();
  return (attribute) => {
    let sql = cache.get(attribute);
    if (!sql) {
      const pairs: string[] = [];
      for (const institution of reach.institutions.values()) {
        if (!isUuidText(institution.id)) throw new Error("institution ids are UUIDs");
        for (const role of PROFILE_ROLES) {
          const configuration = institution.configurations[role];
          if (configuration.allowed.includes(attribute) && !configuration.anonymized.includes(attribute)) pairs.push(`'${institution.id}|${role}'`);
        }
      }
      sql = pairs.length === 0 ? "false" : `((src.inst || '|' || src.perfil) = ANY(ARRAY[${pairs.join(", ")}]::text[]))`;
      cache.set(attribute, sql);
    }
    return sql;
  };
}

export interface TStatement {
  from: string;
  where: string[];
  params: unknown[];
}

export function statementFor(context: TReadContext, route: Pick<TRosteringRoute, "collection" | "where" | "single">, scope?: TInstitutionScope): TStatement {
  const params = baseParams(context);
  const bind = boundId(params, context.ids);
  const where = [...route.collection.where, ...route.where.map((condition: TCondition) => condition(bind))];
  if (route.single) where.push(`src.sid = ${bind(route.single)}`);
  return { from: `(${sourceSql(route.collection.source, scope)}) src`, where, params };
}

export const whereSql = (where: readonly string[]) => (where.length > 0 ? `WHERE ${where.join(" AND ")}` : "");

/**
 * 404 unless every object the path names exists for the application. The parents are looked up
 * together; the first one missing, in the path's order, is the one the error names.
 */
async function checkParents(context: TReadContext, route: TRosteringRoute): Promise<void> {
  const found = await Promise.all(
    route.parents.map(async (parent) => {
      const statement = statementFor(context, { collection: collectionDef(parent.collection), where: parent.where ?? [], single: parent.id });
      const [row] = await context.db.sql.query<{ found: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM ${statement.from} ${whereSql(statement.where)}) AS found`,
        statement.params,
        { prepared: true },
      );
      return row?.found === true;
    }),
  );
  const missing = route.parents.find((_, i) => !found[i]);
  if (missing) throw new OneRosterError("unknownobject", `Unknown Object: ${missing.collection} ${JSON.stringify(missing.id.value.slice(0, 64))}.`);
}

/**
 * What the application with this client id reads, under its ids: the REST binding's and the CSV
 * export's view. A 401 when the application no longer exists (its token still verifies).
 */
export async function applicationView(clientId: string): Promise<Pick<TReadContext, "applicationId" | "reach" | "ids">> {
  const found = await resolveOneRosterReach({ clientId });
  if (!found) throw applicationGone();
  return { applicationId: found.application.id, reach: found.reach, ids: await pairwiseIds({ kind: "application", id: found.application.id }) };
}

/**
 * The moment T a read's statements see the data as of (docs/decisions/013's T), and the server
 * they run on. T is always the primary's, taken in a statement before them, so each transaction
 * that started before T had ended when they take their snapshots, and it does not go back from
 * one request to the next whichever server answers them: a client paging with offsets whose next
 * page came from a server with an older T would see the newest records of the page before vanish
 * and then ask for `dateLastModified>` past them. A replica answers only if it has replayed every
 * transaction that started before T (its own moment, from the primary's beat, is not earlier);
 * otherwise the primary does. With replicas, T is taken two beats earlier than the primary's own,
 * so that a replica keeping up with the beats usually has: changes show a second or two later.
 * Text with microseconds, bound as timestamptz.
 */
export async function readMoment(lagging: Database): Promise<{ cut: string; db: Database }> {
  const primary = database();
  const behindMs = primary.replicas ? 2 * primary.replicas.options.beatMs : 0;
  const [row] = await primary.sql.query<{ at: string }>(
    `SELECT to_char((t.at - make_interval(secs => $1::float8 / 1000)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at FROM (${TIME_SAFE_MOMENT_SQL}) t`,
    [behindMs],
    { prepared: true },
  );
  const cut = row!.at;
  if (lagging === primary) return { cut, db: primary };
  const [caught] = await lagging.sql.query<{ up: boolean }>(`SELECT t.at >= $1::timestamptz AS up FROM (${TIME_SAFE_MOMENT_SQL}) t`, [cut], { prepared: true });
  return { cut, db: caught?.up ? lagging : readPrimaryFromNowOn(primary) };
}

// ---------------------------------------------------------------- shaping a page

const asDate = (value: Date | string) => (value instanceof Date ? value : new Date(value));

/** A page's live people, their profile ids: an SQL array read from the CTE `live` (pageWithNeeds). */
const LIVE_PROFILES = `(SELECT live.ids FROM live)::uuid[]`;

/**
 * A page's statement (`page`, its rows the source's) with what its objects need beside the
 * source's columns, read after the page is cut, in the same statement, as a Data API page reads
 * its people (query-events.ts): one round trip a page, not two. Users and demographics get their
 * people (peopleSql's columns) and users their agents, enrollments their subject, classes their
 * subjects. `order`: the page's order, over `pg`.
 *
 * The people and the links are looked up by the page's ids (index probes), gathered once (`live`):
 * as a join, PostgreSQL hashed every profile of the network when the links table had never been
 * analysed (100,000 students: 49 ms for one link). A guardian link counts when both its profiles
 * are in institutions the application reads ($1).
 */
export function pageWithNeeds(kind: TObjectKind, page: string, order: string): string {
  switch (kind) {
    case "user":
    case "demographics": {
      // A user's agents: the other side of its links (a student's guardians, a guardian's students).
      const agents =
        kind === "user"
          ? {
              ctes: `,
  ag AS MATERIALIZED (SELECT g."guardianId" AS guardian, g."studentId" AS student FROM "GuardianStudent" g
    WHERE (g."guardianId" = ANY(${LIVE_PROFILES}) OR g."studentId" = ANY(${LIVE_PROFILES}))
      AND (SELECT a."institutionId" FROM "Profile" a WHERE a.id = g."guardianId") = ANY($1::uuid[])
      AND (SELECT s."institutionId" FROM "Profile" s WHERE s.id = g."studentId") = ANY($1::uuid[])),
  agents AS (SELECT l.profile, array_agg(l.agent::text ORDER BY l.agent) AS agents
    FROM (SELECT student AS profile, guardian AS agent FROM ag UNION ALL SELECT guardian, student FROM ag) l GROUP BY l.profile)`,
              column: ", agents.agents",
              join: " LEFT JOIN agents ON agents.profile = pg.sid",
            }
          : { ctes: "", column: "", join: "" };
      return `WITH pg AS MATERIALIZED (${page}),
  live AS MATERIALIZED (SELECT ARRAY(SELECT pg.sid FROM pg WHERE NOT pg.deleted) AS ids),
  pe AS MATERIALIZED (${peopleSql(LIVE_PROFILES)})${agents.ctes}
SELECT pg.*, ${PERSON_COLUMNS}${agents.column}
  FROM pg LEFT JOIN pe ON pe."profileId" = pg.sid${agents.join} ORDER BY ${order}`;
    }
    case "enrollment":
      return `SELECT pg.*, sub.name AS subject_name, sub.code AS subject_code FROM (${page}) pg
  LEFT JOIN "Subject" sub ON sub.id = pg.subject_id ORDER BY ${order}`;
    case "class":
      return `SELECT pg.*, (SELECT coalesce(json_agg(json_build_object('name', x.name, 'code', x.code) ORDER BY x.name), '[]'::json)
    FROM (SELECT DISTINCT s.name, s.code FROM "SubjectTeacher" st JOIN "Subject" s ON s.id = st."subjectId" WHERE st."classId" = pg.sid) x) AS subjects
  FROM (${page}) pg ORDER BY ${order}`;
    default:
      return page;
  }
}

/** The page's people (read with the page: pageWithNeeds), with the sharing rule of each one's institution and role applied. */
function peopleOf(rows: TRow[], context: TReadContext): Map<string, Record<string, unknown>> {
  const filters = new Map<string, ReturnType<typeof recordFilterByRole>>();
  const shown = new Map<string, Record<string, unknown>>();
  for (const row of rows) {
    const person = row as TRow & TPersonColumns;
    if (person.profileId === null || person.profileId === undefined) continue;
    const institution = context.reach.institutions.get(row.inst);
    if (!institution) continue;
    let filter = filters.get(row.inst);
    if (!filter) filters.set(row.inst, (filter = recordFilterByRole(institution.configurations, context.applicationId)));
    shown.set(
      row.sid,
      filter({ perfil: row.perfil, nome_usuario: person.name, idade: person.birthDate, cpf: person.cpf, email_usuario: person.email, telefone: person.phone }),
    );
  }
  return shown;
}

const text = (value: unknown): string | null | undefined => (value === undefined ? undefined : value === null ? null : String(value));

/**
 * A page of a source's rows (with what pageWithNeeds adds) as OneRoster objects, under the
 * reader's rule and ids. Each case writes a row's sourcedId, deleted and modifiedAt into its
 * literal instead of spreading them from a helper: the spread cost a page of 1,000 objects about
 * 2.5× its CPU (lib/oneroster/objects.ts, statusOf).
 */
export function shapePage(kind: TObjectKind, rows: TRow[], context: TReadContext): Record<string, unknown>[] {
  const { baseUrl, ids } = context;
  switch (kind) {
    case "org": {
      // Each reached institution's children, gathered in one pass (not a scan of the reach per org).
      const children = new Map<string, string[]>();
      for (const i of context.reach.institutions.values()) {
        if (!i.parentId) continue;
        const siblings = children.get(i.parentId);
        if (siblings) siblings.push(i.id);
        else children.set(i.parentId, [i.id]);
      }
      return rows.map((row) => {
        const institution = context.reach.institutions.get(row.sid);
        return orgObject(baseUrl, { sourcedId: row.sid, deleted: row.deleted, modifiedAt: asDate(row.modified), name: String(row.name), kind: row.type === "school" ? "school" : "network", parentId: institution?.parentId ?? null, childIds: children.get(row.sid) ?? [] });
      });
    }
    case "academicSession":
      return rows.map((row) => academicSessionObject({ sourcedId: row.sid, deleted: row.deleted, modifiedAt: asDate(row.modified), title: String(row.title), startDate: String(row.start_date), endDate: String(row.end_date), code: String(row.code) }));
    case "course":
      return rows.map((row) =>
        courseObject(baseUrl, { sourcedId: row.sid, deleted: row.deleted, modifiedAt: asDate(row.modified), grade: text(row.grade) ?? null, periodId: String(row.period), periodCode: String(row.period_code), institutionId: row.inst }),
      );
    case "class":
      return rows.map((row) =>
        classObject(baseUrl, {
          sourcedId: row.sid, deleted: row.deleted, modifiedAt: asDate(row.modified),
          title: String(row.title),
          grade: text(row.grade) ?? null,
          shift: text(row.shift) ?? null,
          courseId: String(row.course),
          institutionId: row.inst,
          periodId: String(row.period),
          subjects: (row.subjects as { name: string; code: string | null }[] | undefined) ?? [],
        }),
      );
    case "enrollment": {
      const translated = ids.toPartnerMany(rows.flatMap((row) => [row.sid, String(row.user_id)]));
      return rows.map((row, i) => {
        const subjectId = text(row.subject_id);
        const subjectName = text(row.subject_name);
        return enrollmentObject(baseUrl, {
          sourcedId: translated[2 * i]!,
          deleted: row.deleted,
          modifiedAt: asDate(row.modified),
          role: row.role === "teacher" ? "teacher" : "student",
          userId: translated[2 * i + 1]!,
          classId: String(row.class_id),
          institutionId: row.inst,
          subject: subjectId && subjectName ? { sourcedId: subjectId, name: subjectName, code: text(row.subject_code) ?? null } : null,
        });
      });
    }
    case "user": {
      const people = peopleOf(rows, context);
      const order: string[] = [];
      const note = (id: string) => order.push(id) - 1;
      const slots = rows.map((row) => ({ sid: note(row.sid), person: note(String(row.person)), agents: ((row.agents as string[] | undefined) ?? []).map(note) }));
      const translated = ids.toPartnerMany(order);
      return rows.map((row, i) => {
        const shown = people.get(row.sid) ?? {};
        const slot = slots[i]!;
        return userObject(baseUrl, {
          sourcedId: translated[slot.sid]!, deleted: row.deleted, modifiedAt: asDate(row.modified),
          masterId: translated[slot.person]!,
          role: String(row.perfil) as THubRole,
          institutionId: row.inst,
          institutionKind: row.inst_kind === "school" ? "school" : "network",
          name: text(shown.nome_usuario),
          email: text(shown.email_usuario),
          phone: text(shown.telefone),
          cpf: text(shown.cpf),
          agentIds: slot.agents.map((at) => translated[at]!),
        });
      });
    }
    case "demographics": {
      const people = peopleOf(rows, context);
      const translated = ids.toPartnerMany(rows.map((row) => row.sid));
      return rows.map((row, i) => {
        const institution = context.reach.institutions.get(row.inst);
        const plain = institution ? configurationForRecord(institution.configurations, { perfil: row.perfil }) : null;
        const birthDate = plain && plain.allowed.includes("idade") && !plain.anonymized.includes("idade") ? text(people.get(row.sid)?.idade) : undefined;
        return demographicsObject({ sourcedId: translated[i]!, deleted: row.deleted, modifiedAt: asDate(row.modified), birthDate });
      });
    }
  }
}

function selectFields(objects: Record<string, unknown>[], fields: string[] | null): Record<string, unknown>[] {
  if (!fields) return objects;
  return objects.map((object) => Object.fromEntries(fields.filter((name) => name in object).map((name) => [name, object[name]])));
}

// ---------------------------------------------------------------- the request

/** The query parameters, for the access log (the token never is one). */
function loggedFilters(request: Pick<TRosteringRequest, "segments" | "query">): Record<string, string> {
  const filters: Record<string, string> = { path: `/${(request.segments ?? []).join("/")}` };
  for (const name of ["filter", "sort", "orderBy", "fields", "limit", "offset"]) {
    const value = request.query.get(name);
    if (value !== null) filters[name] = value.slice(0, 500);
  }
  return filters;
}

/** The objects' members that carry a personal attribute, and which. */
const PERSONAL_OUTPUT: ReadonlyArray<readonly [string, TPersonalAttribute]> = Object.entries({
  givenName: "nome_usuario",
  familyName: "nome_usuario",
  email: "email_usuario",
  phone: "telefone",
  userIds: "cpf",
  birthDate: "idade",
} as const);

const carriesValue = (value: unknown) => value !== undefined && value !== "" && !(Array.isArray(value) && value.length === 0);

/** One access-log row per institution whose records the page carries (the first reached one for an empty page). */
export function writeAccessLog(filters: Record<string, string>, context: TReadContext, rows: TRow[], objects: Record<string, unknown>[], status: number): void {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.inst, (counts.get(row.inst) ?? 0) + 1);
  if (counts.size === 0 && context.reach.ids[0]) counts.set(context.reach.ids[0], 0);
  const attributes = new Set<TPersonalAttribute>();
  for (const [field, attribute] of PERSONAL_OUTPUT) if (objects.some((object) => carriesValue(object[field]))) attributes.add(attribute);
  for (const [institutionId, eventCount] of counts) {
    logAccess({ channel: "oneroster", applicationId: context.applicationId, institutionId, filters, status, eventCount, attributes: [...attributes] });
  }
}

function collectionUrl(baseUrl: string, segments: readonly string[]): string {
  return `${baseUrl}${ROSTERING_PATH}/${segments.map(encodeURIComponent).join("/")}`;
}

/**
 * One page. A source read by institution is read as one ordered scan per institution (and per
 * entity: enrollments are two), each stopped after offset + limit rows (ChangeEvent_record_order_idx
 * serves the default order), and the scans merged: a page of a network costs its institutions'
 * first rows, not a sort of all its records. Not prepared: after five runs PostgreSQL may keep a
 * generic plan, and for a school's merge one chose a plan 13 times slower than the custom one
 * (bench, 100,000 students); planning the merge of 14 scans costs about 8 ms.
 *
 * `after`: in the default order, the record before a position at or before the offset
 * (page-positions.ts): the scans start after it and skip only the rest of the way.
 */
async function readPage(
  { db, reach, ids, cut }: TReadContext,
  route: TRosteringRoute,
  from: string,
  allWhere: readonly string[],
  params: unknown[],
  sort: { key: string | null; direction: "ASC" | "DESC" },
  paging: { limit: number; offset: number },
  since: Date | null,
  after: TPagePosition | null,
  budgetMs: number | null,
): Promise<TRow[]> {
  const { key, direction } = sort;
  const order = (alias: string, keyColumn: string | null) => `${keyColumn ? `${keyColumn} ${direction}, ` : ""}${alias}.sid ${direction}`;
  const seek = after && key === null ? after : null;
  const where = seek ? [...allWhere, `src.sid ${direction === "ASC" ? ">" : "<"} $${params.push(seek.sid)}::uuid`] : allWhere;
  const skipped = paging.offset - (seek?.offset ?? 0);
  const limit = `$${params.push(paging.limit)}`;
  const offset = `$${params.push(skipped)}`;
  const source = route.collection.source;
  const keyColumn = key ? `, ${key} AS sort_key` : "";
  // The page with what its objects need, in the page's order (its sort key is a column of every form below).
  const read = (page: string) => queryWithin<TRow>(db, budgetMs, pageWithNeeds(route.collection.kind, page, order("pg", key ? "pg.sort_key" : null)), params);
  // A route that names a few records reads them by id (the set first), not every institution's records in order.
  if (!READ_BY_INSTITUTION[source] || route.few) {
    return read(`SELECT src.*${keyColumn} FROM ${from} ${whereSql(where)} ORDER BY ${order("src", key)} LIMIT ${limit} OFFSET ${offset}`);
  }
  const each = `$${params.push(skipped + paging.limit)}`;
  // A school's collection reads that school alone, if it is one the application reads (checkParents answers 404 otherwise).
  const school = route.countIn?.institution;
  // Each institution as SQL: an element of $1 (the read's institutions), or the school if it is one of them.
  const schoolSql = school ? `(SELECT u.id FROM unnest($1::uuid[]) AS u(id) WHERE u.id = ${boundId(params, ids)(school)})` : null;
  const institutions = schoolSql ? [schoolSql] : reach.ids.map((_, i) => `($1::uuid[])[${i + 1}]`);
  const entities = ENTITIES_OF[source];
  const scan = (scope: TInstitutionScope) =>
    `SELECT src.*${keyColumn} FROM (${sourceSql(source, scope)}) src ${whereSql(where)} ORDER BY ${order("src", key)} LIMIT ${each}`;
  const merged = `ORDER BY ${order("s", key ? "s.sort_key" : null)} LIMIT ${limit} OFFSET ${offset}`;
  let scans = institutions.flatMap((institution) => (entities ?? [null]).map((entity) => ({ institution, entity })));
  if (scans.length <= MAX_MERGED_SCANS) {
    // A delta read (a lower bound on dateLastModified) plans only the scans with a change since
    // it: planning costs about 0.35 ms a scan, and a delta of 28 scans at a million students
    // spent 10 ms planning and 2.4 running.
    if (!schoolSql && since && scans.length > PRUNED_ABOVE) {
      const changed = await db.sql.query<{ n: number; entity: string }>(SCANS_WITH_CHANGES_SQL, [reach.ids, EVENT_ENTITIES[source], since.toISOString(), cut], { prepared: true });
      // Each entity back from the source's own list, never from the database's text.
      scans = changed.map((c) => ({ institution: `($1::uuid[])[${Number(c.n)}]`, entity: entities?.find((e) => e === c.entity) ?? null }));
      if (scans.length === 0) return [];
    }
    // One branch per institution (and entity): PostgreSQL merges their ordered scans (Merge
    // Append) and pulls from each only what the page needs, about limit + offset rows in all.
    const branches = scans.map(({ institution, entity }) => `(${scan({ kind: "one", sql: institution, ...(entity ? { entity: `'${entity}'` } : {}) })})`);
    return read(`SELECT s.* FROM (${branches.join(" UNION ALL ")}) s ${merged}`);
  }
  // Past that, one lateral scan per institution, each stopped after limit + offset rows.
  const perEntity = entities ? ` CROSS JOIN unnest($${params.push(entities)}::text[]::"EntityName"[]) AS k(entity)` : "";
  const rows = schoolSql ? `(SELECT ${schoolSql} AS id)` : "unnest($1::uuid[])";
  return read(`SELECT s.* FROM ${rows} AS r(id)${perEntity} CROSS JOIN LATERAL (${scan({ kind: "one", sql: "r.id", ...(entities ? { entity: "k.entity" } : {}) })}) s ${merged}`);
}

/**
 * How long counting a filter's matches may take. A filter on a field without an index (a name, a
 * role) is counted by reading every record of the collection: at a million students, 2–15 s, and
 * past the pool's statement_timeout the whole read failed. Past this budget the page is answered
 * without X-Total-Count (pagingHeaders).
 */
export const COUNT_BUDGET_MS = 3_000;

/**
 * How long the page of a sort, or of a filter no index serves, may take: past it the read is a
 * 400 that says what to use instead (tooCostly). Without it such a read held the database for the
 * pool's whole statement_timeout (15 s) before failing.
 */
export const PAGE_BUDGET_MS = 5_000;

/** A statement, with `budgetMs` as its own statement_timeout (in a transaction of its own), or as any other. */
function queryWithin<T>(db: Database, budgetMs: number | null, sql: string, params: unknown[]): Promise<T[]> {
  if (budgetMs === null) return db.sql.query<T>(sql, params);
  return db.sql.transaction(async (tx) => {
    await tx.exec(`SET LOCAL statement_timeout = ${Math.trunc(budgetMs)}`);
    return tx.query<T>(sql, params);
  });
}

/** X-Total-Count by counting the query's matches; with `budgetMs`, null when counting takes longer. */
async function countMatches(db: Database, statement: TStatement, where: readonly string[], params: unknown[], budgetMs: number | null): Promise<number | null> {
  try {
    return (await queryWithin<{ n: number }>(db, budgetMs, `SELECT count(*)::int AS n FROM ${statement.from} ${whereSql(where)}`, params))[0]!.n;
  } catch (error) {
    if (budgetMs !== null && isStatementCancelled(error)) return null;
    throw error;
  }
}

/**
 * X-Total-Count of a whole collection (or of one school's) from the counts maintained with the log
 * (EventCount.live: records whose latest event is not a delete), plus the deletes still shown:
 * a read of index entries, whatever the number of records. The live counts are those of now, the
 * page's rows those of T (about a second earlier): a record written in between may be counted
 * before it is listed.
 */
async function countMaintained({ db, ids }: TReadContext, counted: NonNullable<TCollectionDef["counted"]>, institutionId: TPathId | null, params: unknown[]): Promise<number> {
  // A school of the path, counted if it is one of the read's schools (checkParents answers 404 otherwise).
  const institution = institutionId ? boundId(params, ids)(institutionId) : null;
  const entityList = `$${params.push(counted.entities)}`;
  const role = counted.role ? `$${params.push(counted.role)}::text` : null;
  const [row] = await db.sql.query<{ n: string }>(
    `SELECT (SELECT coalesce(sum(c.live), 0) FROM "EventCount" c
              WHERE c."institutionId" = ANY($1::uuid[])${institution ? ` AND c."institutionId" = ${institution}` : ""}
                AND c.entity = ANY(${entityList}::text[]::"EntityName"[])${role ? ` AND c.role = ${role}` : ""})
          + (${tombstoneCountSql(entityList, role, institution)}) AS n`,
    params,
    { prepared: true },
  );
  return Number(row!.n);
}

/**
 * The segments of a request path under the service's base (`/ims/oneroster/rostering/v1p2/…`),
 * percent-decoded; null when a segment is not valid percent-encoded UTF-8 (a 404 then).
 */
export function rosteringSegments(pathname: string): string[] | null {
  const rest = pathname.startsWith(ROSTERING_PATH) ? pathname.slice(ROSTERING_PATH.length) : pathname;
  try {
    return rest.split("/").filter((segment) => segment !== "").map(decodeURIComponent);
  } catch {
    return null;
  }
}

async function read(request: TRosteringRequest): Promise<TRosteringResponse> {
  const route = rosteringRoute(request.segments ?? ["\u0000"]);
  const client = await verifyOneRosterBearer(request.authorization);
  return readAs(client, route, request);
}

/**
 * The read for a client whose token was verified: what follows the bearer check. Exported for the
 * growth bench, which replays the statements of a read (bench/data-api/growth.ts).
 */
export async function readRosteringAs(client: TOneRosterClient, request: Omit<TRosteringRequest, "authorization">): Promise<TRosteringResponse> {
  try {
    return await readsMayLag(() => readAs(client, rosteringRoute(request.segments ?? ["\u0000"]), request));
  } catch (error) {
    return oneRosterRefusal(error, "OneRoster read failed");
  }
}

async function readAs(client: TOneRosterClient, route: TRosteringRoute, request: Omit<TRosteringRequest, "authorization">): Promise<TRosteringResponse> {
  requireScope(client, route.scopes);
  const query = request.query;
  const kind = route.collection.kind;
  // Everything the client sent is checked before the database is read.
  const fields = parseFields(query.getAll("fields"), SELECTABLE_FIELDS[kind]);
  const filterText = query.get("filter");
  const filterAst = filterText === null ? null : parseFilter(filterText);
  const paging = route.single ? null : parsePaging(query.get("limit"), query.get("offset"), { maxLimit: MAX_LIMIT });

  // Independent of each other: one round trip's wait, not two.
  const [{ applicationId, reach, ids }, { cut, db }] = await Promise.all([applicationView(client.clientId), readMoment(database("may-lag"))]);
  const context: TReadContext = { applicationId, reach, ids, baseUrl: hubBaseUrl(), cut, db };

  // A filter that pins an indexed field (a class's enrollments) reads a few records: whole, its institutions checked on each row.
  const pinned = filterAst !== null && (PINNING_FIELDS[route.collection.source] ?? []).some((field) => pinsField(filterAst, field));
  const statement = statementFor(context, route, pinned ? CHECKED : undefined);
  const fieldContext: TFieldContext = { toGlobal: (id) => ids.toGlobal(id) ?? id, plain: plainConditions(reach) };
  const fieldMap = fieldMapFor(FIELD_MAP_OF[kind], fieldContext);
  const where = [...statement.where];
  if (filterAst) where.push(compileFilter(filterAst, fieldMap, statement.params));
  // Checked, though one object has no order.
  const sort = parseSortKey(query.get("sort"), query.get("orderBy"), fieldMap);
  if (route.single) {
    await checkParents(context, route);
    const rows = await db.sql.query<TRow>(pageWithNeeds(kind, `SELECT src.* FROM ${statement.from} ${whereSql(where)} LIMIT 1`, "pg.sid"), statement.params);
    if (rows.length === 0) throw new OneRosterError("unknownobject", `Unknown Object: ${JSON.stringify(route.single.value.slice(0, 64))}.`);
    const objects = selectFields(shapePage(kind, rows, context), fields);
    writeAccessLog(loggedFilters(request), context, rows, objects, 200);
    return { status: 200, headers: { ...JSON_HEADERS }, body: { [route.collection.singular]: objects[0] } };
  }

  const countParams = [...statement.params];
  // In the default order, a page continues a walk from the last record of an earlier page (page-positions.ts).
  const shape = sort.key === null ? pageShape({ applicationId, path: (request.segments ?? []).join("/"), filter: filterText, direction: sort.direction }) : null;
  // The path's parents are checked beside the page and its count, not before them: one round
  // trip's wait less. Every source reads only the institutions the application reaches ($1), so
  // the page of a path whose parent is unknown is empty, and dropped for the 404.
  const since = filterAst === null ? null : modifiedSince(filterAst);
  // A filter that neither bounds dateLastModified nor pins an indexed field may read every record: its page and count run within budgets, as a sort's page does.
  const unindexed = filterAst !== null && since === null && !route.few && !pinned;
  // The maintained counts answer a whole collection, and a users' collection filtered by nothing but a role they keep.
  const role = filterAst === null || route.collection.source !== "users" || route.collection.counted?.role ? null : onlyEquals(filterAst, "roles.role");
  const counted = filterAst === null ? route.collection.counted : role !== null && Object.hasOwn(COUNTED_ROLES, role) && route.collection.counted ? { ...route.collection.counted, role: COUNTED_ROLES[role]! } : undefined;
  const [, rows, total] = await Promise.all([
    checkParents(context, route),
    readPage(context, pinned ? { ...route, few: true } : route, statement.from, where, statement.params, sort, paging!, since, shape ? positionBefore(shape, paging!.offset) : null, sort.key !== null || unindexed ? PAGE_BUDGET_MS : null).catch(
      (error: unknown) => {
        // A sort, or a filter without an index, that reads more of the network than its budget (or a statement's time).
        if (isStatementCancelled(error) && (sort.key !== null || filterAst !== null)) throw tooCostly(sort.key !== null ? query.get("sort") : null);
        throw error;
      },
    ),
    counted && route.countIn
      ? countMaintained(context, counted, route.countIn.institution, countParams.slice(0, BASE_PARAMS))
      : // A delta (a lower bound on dateLastModified) and a class's members are counted by an index range; other filters within a budget.
        countMatches(db, statement, where, countParams, unindexed ? COUNT_BUDGET_MS : null),
  ]);
  if (shape && rows.length > 0) rememberPosition(shape, { offset: paging!.offset + rows.length, sid: rows.at(-1)!.sid });
  const objects = selectFields(shapePage(kind, rows, context), fields);
  writeAccessLog(loggedFilters(request), context, rows, objects, 200);
  const headers = {
    ...JSON_HEADERS,
    ...pagingHeaders(collectionUrl(context.baseUrl, request.segments ?? []), query, { limit: paging!.limit, offset: paging!.offset, total, full: rows.length === paging!.limit }),
  };
  return { status: 200, headers, body: { [route.collection.plural]: objects } };
}

/** A GET of the Rostering service, answered: a page, one object, or the binding's status payload. */
export async function readRostering(request: TRosteringRequest): Promise<TRosteringResponse> {
  try {
    // Its data statements may be read on a replica, all on the same server; the token and the
    // sharing rules are read on the primary (docs/decisions/042-read-replicas.md).
    return await readsMayLag(() => read(request));
  } catch (error) {
    return oneRosterRefusal(error, "OneRoster read failed");
  }
}

/**
 * Anything a OneRoster endpoint caught, as the binding answers it: the status payload with its
 * HTTP status and, for 401/403, the Bearer challenge. The database unavailable, or a statement
 * past its time, is a 429 server_busy with Retry-After. Any other error that is not a refusal is
 * logged (with `what`) and answered as a 500 that says nothing of it.
 */
export function oneRosterRefusal(error: unknown, what: string): TRosteringResponse {
  // The database down, or a statement past its time: the binding's "server busy, retry later", as
  // the rest of the Hub answers 503 with Retry-After (lib/server/http/error-response.ts).
  if (isDatabaseUnavailable(error)) {
    reportDatabaseUnavailable(error);
    const busy = new OneRosterError("server_busy");
    return { status: busy.httpStatus, headers: { ...JSON_HEADERS, "Retry-After": String(RETRY_AFTER_SECONDS) }, body: statusPayload(busy) };
  }
  if (!(error instanceof OneRosterError)) log().error({ err: error }, what);
  const refusal = asOneRosterError(error);
  const challenge = bearerChallenge(refusal);
  return { status: refusal.httpStatus, headers: { ...JSON_HEADERS, ...(challenge ? { "WWW-Authenticate": challenge } : {}) }, body: statusPayload(refusal) };
}

/** A read whose sort (`sort`, the client's field) or filter took longer than a statement may: a 400 that says what to do instead. */
function tooCostly(sort: string | null): OneRosterError {
  const what = sort !== null ? `Sorting by ${quoteInput(sort)}` : "This filter";
  return new OneRosterError(
    "invaliddata",
    `${what} reads more records than the Hub can answer in time for this network. Use the default order (no sort), a school's collection (schools/{id}/...), or a filter on dateLastModified or sourcedId.`,
  );
}
