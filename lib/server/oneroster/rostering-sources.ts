// Where each OneRoster collection's rows come from, as SQL, and the field map its `filter` and
// `sort` compile against (lib/oneroster/filter-compile.ts). OneRoster is a view of the Data API's
// event log, not a copy (docs/decisions/040-oneroster-as-a-view-of-the-feed.md): a record's state is
// its latest event before the read's moment T, its `dateLastModified` that event's time, and a
// delete within the retention window is the record with `status: tobedeleted`.
//
// Every source reads the same three parameters, bound first by the caller:
//   $1 uuid[]      the institutions the application reads (resolve-oneroster-reach.ts)
//   $2 timestamptz T, the read's moment (TIME_SAFE_MOMENT_SQL, decision 013), taken by an earlier
//                  statement of the same request: every transaction that started before T had
//                  ended then, and every one still to commit stamps its events at T or later
//   $3 timestamptz deletes older than this are no longer shown
// and names its columns alike: sid (the Hub's id, a uuid, so a page walks the record order index),
// deleted, modified, inst (the institution, a uuid). Other ids are uuids too; a client's id is bound
// as a uuid, or as NULL (matching nothing) when it is not one (read-rostering.ts).
import { createHash } from "node:crypto";
import type { TFieldMap, TFieldSpec } from "@/lib/oneroster/field-map";
import { userRole, type THubRole } from "@/lib/oneroster/objects";
import { feedFloorSql } from "@/lib/server/data-api/query-events";

/** How long a deleted record is still shown as `tobedeleted` (docs/oneroster.md). */
export const TOMBSTONE_DAYS = 30;

export const BASE_PARAMS = 3;

/**
 * Which institutions a source reads: all of the read's ($1), or one, an SQL expression (a page
 * reads each institution by itself and merges them: read-rostering.ts).
 */
export type TInstitutionScope = { kind: "all" } | { kind: "checked" } | { kind: "one"; sql: string; entity?: string };
const ALL: TInstitutionScope = { kind: "all" };
/**
 * All of the read's institutions, checked on each row another index found (a class's members, a
 * user's classes) and written so that PostgreSQL cannot read the institutions' index beside that
 * one: at 1,000,000 students it misjudged a class at 5,000 members (its statistics sample a few
 * of 33,000 classes) and ANDed the class's 30 entries with the network's 2.2 million, 150 ms
 * instead of 1. A condition under IS TRUE is no index condition.
 */
export const CHECKED: TInstitutionScope = { kind: "checked" };

/**
 * Fields whose `=` in a filter pins a read to a few records an index finds (a class's enrollments:
 * ChangeEvent_class_members_idx; a user's: ChangeEvent_profile1_txid_seq_idx). Such a read is read whole with its institutions CHECKED, as a
 * class's members are, not merged per institution: each institution's scan ANDed the class's 30
 * entries with the institution's 220,000 at a million students (a page cost 5 times its cost at
 * 10,000).
 */
export const PINNING_FIELDS: Partial<Record<TSourceName, readonly string[]>> = { enrollments: ["class.sourcedId", "user.sourcedId"] };

/**
 * A user's role as OneRoster names it, for the Hub's roles a maintained count is kept by
 * (EventCount.role): `users?filter=roles.role='student'` is counted as `/students` is, not by
 * reading every user (2.1–4.5 s at a million students). Administrators are managers of a school
 * or of a network, which the counts do not tell apart.
 */
export const COUNTED_ROLES: Readonly<Record<string, THubRole>> = Object.fromEntries(
  (["aluno", "professor", "responsavel"] as const).map((role) => [userRole(role, "school"), role]),
);

function institutionCondition(column: string, scope: TInstitutionScope): string {
  if (scope.kind === "one") return `${column} = ${scope.sql}`;
  return scope.kind === "all" ? `${column} = ANY($1::uuid[])` : `(${column} = ANY($1::uuid[])) IS TRUE`;
}

/**
 * Each record's latest event before T (of `entities`, an SQL condition on e.entity). An event
 * before T is committed (its transaction started before T, so it had ended), and it is the
 * record's latest before T unless the event that superseded it is before T too. That one's
 * transaction took its id after the feed clock's entry for T only if it started after about T
 * (decision 018): only the few events superseded since then are looked at.
 */
function current(entities: string, scope: TInstitutionScope): string {
  return `SELECT e.* FROM "ChangeEvent" e
   WHERE ${institutionCondition(`e."institutionId"`, scope)} AND e.entity ${entities}
     AND e."occurredAt" < $2::timestamptz
     AND (e."supersededTxid" IS NULL OR (e."supersededTxid" >= ${feedFloorSql("$2")}
          AND NOT EXISTS (SELECT 1 FROM "ChangeEvent" n WHERE n."recordId" = e."recordId" AND n.txid = e."supersededTxid" AND n."occurredAt" < $2::timestamptz)))
     AND (e.kind <> 'delete' OR e."occurredAt" >= $3::timestamptz)`;
}

/** The deletes still shown (tobedeleted) of `entities` (text[] parameter) of a role, if given: X-Total-Count adds them to the live counts. */
export function tombstoneCountSql(entities: string, role: string | null, institution: string | null): string {
  return `SELECT count(*) FROM (${current(`= ANY(${entities}::text[]::"EntityName"[])`, ALL)}) e
   WHERE e.kind = 'delete' AND e."occurredAt" >= $3::timestamptz${institution ? ` AND e."institutionId" = ${institution}` : ""}${role ? ` AND e.record->>'perfil' = ${role}` : ""}`;
}

const BASE_COLUMNS = `e."recordId" AS sid, e.kind = 'delete' AS deleted, e."occurredAt" AS modified, e."institutionId" AS inst`;

/**
 * A course's id: a grade of one period at one institution (docs/oneroster.md, "Cursos"). Derived,
 * not stored, so SQL and the CSV import compute it alike (courseIdFor).
 */
export const courseIdSql = (inst: string, period: string, grade: string) =>
  `md5('hub/oneroster/course/' || ${inst} || '/' || ${period} || '/' || coalesce(${grade}, ''))::uuid`;

const SOURCES = {
  // Institutions are not in the event log: their row is their state (they are not deleted while
  // they hold data). The moment and the floor are bound all the same, and named, so every source
  // takes the same three parameters.
  orgs: (scope: TInstitutionScope) => `SELECT i.id AS sid, false AS deleted, i."updatedAt" AS modified, i.id AS inst, i.name,
      CASE WHEN i.kind = 'school' THEN 'school' ELSE 'district' END AS type, i."parentId" AS parent,
      $2::timestamptz AS moment, $3::timestamptz AS floor
    FROM "Institution" i WHERE ${institutionCondition("i.id", scope)}`,
  academicSessions: (scope: TInstitutionScope) => `SELECT ${BASE_COLUMNS}, e.record->>'nome' AS title, e.record->>'inicio' AS start_date,
      e.record->>'fim' AS end_date, e.record->>'codigo' AS code
    FROM (${current(`= 'periodo'`, scope)}) e`,
  classes: (scope: TInstitutionScope) => `SELECT ${BASE_COLUMNS}, e.record->>'nome' AS title, e.record->>'serie' AS grade, e.record->>'turno' AS shift,
      (e.record->>'periodoId')::uuid AS period, e.record->>'codigoPeriodo' AS period_code,
      ${courseIdSql(`e."institutionId"::text`, `(e.record->>'periodoId')`, `(e.record->>'serie')`)} AS course
    FROM (${current(`= 'turma'`, scope)}) e`,
  enrollments: (scope: TInstitutionScope) => `SELECT ${BASE_COLUMNS}, CASE e.entity WHEN 'turmaAluno' THEN 'student' ELSE 'teacher' END AS role,
      coalesce(e.record->>'alunoId', e.record->>'professorId')::uuid AS user_id, (e.record->>'turmaId')::uuid AS class_id, e.record->>'turmaId' AS class_key, e."profileIds"[1] AS user_key,
      (e.record->>'disciplinaId')::uuid AS subject_id
    FROM (${current(scope.kind === "one" && scope.entity ? `= ${scope.entity}` : `IN ('turmaAluno', 'disciplinaProfessor')`, scope)}) e`,
  // The person's values are not columns: a filter or sort that names one reads it by the profile
  // (personSql), and a page's people are read after the page is cut (read-rostering.ts), as the
  // Data API does. A join here would be planned for every record of the source.
  users: (scope: TInstitutionScope) => `SELECT ${BASE_COLUMNS}, e.record->>'perfil' AS perfil, (e.record->>'pessoaId')::uuid AS person, i.kind::text AS inst_kind,
      CASE e.record->>'perfil' WHEN 'aluno' THEN 'student' WHEN 'professor' THEN 'teacher' WHEN 'responsavel' THEN 'guardian'
        ELSE CASE WHEN i.kind = 'school' THEN 'siteAdministrator' ELSE 'districtAdministrator' END END AS role
    FROM (${current(`= 'usuario'`, scope)}) e
    JOIN "Institution" i ON i.id = e."institutionId"`,
} as const;

/** Courses: every grade of a period at an institution that has (or had, within the window) a class. */
const coursesSource = (scope: TInstitutionScope) => `SELECT c.course AS sid, bool_and(c.deleted) AS deleted, max(c.modified) AS modified, c.inst,
    c.period, max(c.period_code) AS period_code, c.grade
  FROM (${SOURCES.classes(scope)}) c GROUP BY c.course, c.inst, c.period, c.grade`;

/**
 * The users (uuid) enrolled in a class (`classId`, a uuid SQL expression) with `entity`
 * (turmaAluno: students; disciplinaProfessor: teachers), as of T: found by the class
 * (ChangeEvent_class_members_idx), not by reading every enrollment of the network.
 */
export function classMembersSql(classId: string, entity: "turmaAluno" | "disciplinaProfessor", school: string | null): string {
  const member = entity === "turmaAluno" ? "alunoId" : "professorId";
  return `SELECT (e.record->>'${member}')::uuid FROM (${current(`= '${entity}'`, CHECKED)}) e
   WHERE e.record->>'turmaId' = (${classId})::text AND e.kind <> 'delete'${school ? ` AND e."institutionId" = ${school}` : ""}`;
}

/**
 * The classes (uuid) a user (`userId`, a uuid SQL expression) is enrolled in, as of T: found by
 * the event's person (the feed's "profileIds"[1] index, the Data API's user_id filter's).
 */
export function userClassesSql(userId: string): string {
  return `SELECT (e.record->>'turmaId')::uuid FROM (${current(`IN ('turmaAluno', 'disciplinaProfessor')`, CHECKED)}) e
   WHERE e."profileIds"[1] = (${userId})::text AND e.kind <> 'delete'`;
}

export type TSourceName = keyof typeof SOURCES | "courses";

/** A source's SQL, over every institution of the read or over one. */
export function sourceSql(name: TSourceName, scope: TInstitutionScope = ALL): string {
  return name === "courses" ? coursesSource(scope) : SOURCES[name](scope);
}

/**
 * Whether a page reads each institution by itself and merges them (an ordered index scan per
 * institution, ChangeEvent_record_order_idx), or reads the source whole: institutions and courses
 * are few, and a course groups its institution's classes.
 */
/**
 * The entities a source reads, when more than one: a page's ordered scan is per institution AND
 * entity, since the record order index orders each entity's records apart.
 */
export const ENTITIES_OF: Partial<Record<TSourceName, readonly string[]>> = { enrollments: ["turmaAluno", "disciplinaProfessor"] };

/**
 * The event entities each source read by institution is made of (its `current` conditions): an
 * institution with no event of them after a date has no record of the source changed after it.
 */
export const EVENT_ENTITIES: Partial<Record<TSourceName, readonly string[]>> = {
  academicSessions: ["periodo"],
  classes: ["turma"],
  enrollments: ENTITIES_OF.enrollments!,
  users: ["usuario"],
};

export const READ_BY_INSTITUTION: Readonly<Record<TSourceName, boolean>> = {
  orgs: false,
  courses: false,
  academicSessions: true,
  classes: true,
  enrollments: true,
  users: true,
};

// ---------------------------------------------------------------- field maps

/** The fields every object has: its id (as the collection compares it), status and dateLastModified. */
const common = (sourcedId: TFieldSpec): TFieldMap => ({ sourcedId, status: STATUS, dateLastModified: MODIFIED });

const STATUS: TFieldSpec = { sql: `(CASE WHEN src.deleted THEN 'tobedeleted' ELSE 'active' END)`, type: "enum", enumValues: ["active", "tobedeleted"] };
const MODIFIED: TFieldSpec = { sql: "src.modified", type: "datetime" };
/** An id: compared as text (the client's value is any text), sorted by the uuid itself (the index's order). */
const id = (column: string): TFieldSpec => ({ sql: `${column}::text`, sortSql: column, uuidSql: column, type: "string" });

/** A person's current value of `column` ("Person" p), for the user `src` names; none once deleted. */
const personSql = (column: string) =>
  `(SELECT ${column} FROM "Profile" pr JOIN "Person" p ON p.id = pr."personId" WHERE pr.id = src.sid AND NOT src.deleted)`;

/**
 * A person's id (a person, a profile, an enrollment): the client sends the application's pairwise
 * id, compared as the Hub's. Its order says nothing to the client, so it cannot be sorted on, and
 * only `=` and `!=` mean something.
 */
const personId = (column: string, toGlobal: (id: string) => string): TFieldSpec => ({
  sql: `${column}::text`,
  uuidSql: column,
  type: "string",
  operators: ["=", "!="],
  sortable: false,
  toColumnValue: toGlobal,
});

/** What a field map needs to know of the request. */
export interface TFieldContext {
  /** The Hub's id for an id the client sent (unchanged when it is not one of the application's ids). */
  toGlobal: (partnerId: string) => string;
  /**
   * Per personal attribute, an SQL condition on `src` (no parameter) true where the application
   * sees it in plain (the record's institution and role): a value it does not see, or sees as a
   * pseudonym, is no value to a filter or a sort.
   */
  plain: (attribute: "nome_usuario" | "email_usuario" | "telefone" | "idade") => string;
}

const nameSql = (c: TFieldContext) => `(CASE WHEN ${c.plain("nome_usuario")} THEN btrim(${personSql("p.name")}) END)`;

/** A personal field: its SQL (which lists where the value is plain) is built only when a filter or sort names it. */
function personal(type: TFieldSpec["type"], sql: () => string): TFieldSpec {
  return {
    type,
    get sql() {
      return sql();
    },
  };
}
const shown = (c: TFieldContext, attribute: Parameters<TFieldContext["plain"]>[0], sql: string, type: TFieldSpec["type"] = "string") =>
  personal(type, () => `(CASE WHEN ${c.plain(attribute)} THEN ${sql} END)`);

export type TFieldMapName = "orgs" | "academicSessions" | "courses" | "classes" | "enrollments" | "users" | "demographics";

/** The field map of one collection, built per request (ids and plain attributes are the application's). */
export function fieldMapFor(name: TFieldMapName, c: TFieldContext): TFieldMap {
  switch (name) {
    case "orgs":
      return {
        ...common(id("src.sid")),
        name: { sql: "src.name", type: "string" },
        type: { sql: "src.type", type: "enum", enumValues: ["district", "school", "department", "local", "national", "state"] },
        identifier: { sql: "''", type: "string" },
        "parent.sourcedId": id("src.parent"),
      };
    case "academicSessions":
      return {
        ...common(id("src.sid")),
        title: { sql: "src.title", type: "string" },
        startDate: { sql: "(src.start_date)::date", type: "date" },
        endDate: { sql: "(src.end_date)::date", type: "date" },
        type: { sql: "'schoolYear'", type: "enum", enumValues: ["gradingPeriod", "semester", "schoolYear", "term"] },
        schoolYear: { sql: `(CASE WHEN src.code ~ '^[0-9]{4}$' THEN src.code ELSE left(src.end_date, 4) END)`, type: "string" },
      };
    case "courses":
      return {
        ...common(id("src.sid")),
        title: { sql: `(coalesce(src.grade, 'Sem série') || ' — ' || src.period_code)`, type: "string" },
        courseCode: { sql: "coalesce(src.grade, '')", type: "string" },
        "schoolYear.sourcedId": id("src.period"),
        "org.sourcedId": id("src.inst"),
      };
    case "classes":
      return {
        ...common(id("src.sid")),
        title: { sql: "src.title", type: "string" },
        classCode: { sql: "src.title", type: "string" },
        classType: { sql: "'homeroom'", type: "enum", enumValues: ["homeroom", "scheduled"] },
        "course.sourcedId": id("src.course"),
        "school.sourcedId": id("src.inst"),
        "terms.sourcedId": id("src.period"),
      };
    case "enrollments":
      return {
        ...common(personId("src.sid", c.toGlobal)),
        role: { sql: "src.role", type: "enum", enumValues: ["administrator", "proctor", "student", "teacher"] },
        primary: { sql: "'false'", type: "enum", enumValues: ["true", "false"] },
        // Both as the event's own text, which an index finds: a user's enrollments by the feed's
        // ("profileIds"[1]), a class's by the class members' (ChangeEvent_class_members_idx).
        "user.sourcedId": { ...personId("src.user_id", c.toGlobal), sql: "src.user_key", uuidSql: undefined },
        "class.sourcedId": { ...id("src.class_id"), sql: "src.class_key", uuidSql: undefined },
        "school.sourcedId": id("src.inst"),
      };
    case "users":
      return {
        ...common(personId("src.sid", c.toGlobal)),
        userMasterIdentifier: personId("src.person", c.toGlobal),
        enabledUser: { sql: "(NOT src.deleted)", type: "boolean" },
        givenName: personal("string", () => `split_part(${nameSql(c)}, ' ', 1)`),
        familyName: personal("string", () => {
          const name = nameSql(c);
          return `btrim(substr(${name}, length(split_part(${name}, ' ', 1)) + 1))`;
        }),
        email: shown(c, "email_usuario", personSql("p.email")),
        phone: shown(c, "telefone", personSql("p.phone")),
        "roles.role": {
          sql: "src.role",
          type: "enum",
          enumValues: ["aide", "counselor", "districtAdministrator", "guardian", "parent", "principal", "proctor", "relative", "siteAdministrator", "student", "systemAdministrator", "teacher"],
        },
        "roles.roleType": { sql: "'primary'", type: "enum", enumValues: ["primary", "secondary"] },
        "roles.org.sourcedId": id("src.inst"),
        "primaryOrg.sourcedId": id("src.inst"),
      };
    case "demographics":
      return {
        ...common(personId("src.sid", c.toGlobal)),
        birthDate: shown(c, "idade", personSql(`p."birthDate"`), "date"),
      };
  }
}

/** courseIdSql in TypeScript: the same md5 of the same text, as a UUID (tested against the SQL). */
export function courseIdFor(institutionId: string, periodId: string, grade: string | null): string {
  const hex = createHash("md5").update(`hub/oneroster/course/${institutionId}/${periodId}/${grade ?? ""}`, "utf8").digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
