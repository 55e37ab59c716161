// The Hub's school data as OneRoster 1.2 Rostering objects (docs/oneroster.md has the mapping as
// a table). Pure: the rows arrive with the application's sharing rule already applied (personal
// values absent, plain or pseudonymised) and person ids already the application's pairwise ids;
// this module only names and shapes. The REST binding (lib/server/oneroster) and the CSV binding
// both build their records here, so both say the same thing.
//
// Field names, required members and enums: the Rostering service's OpenAPI document
// (onerosterv1p2rostersservice_openapi3_v1p0.json, components.schemas.*DType).

export const ROSTERING_PATH = "/ims/oneroster/rostering/v1p2";

export type TGuidRefType = "org" | "academicSession" | "course" | "class" | "user";

export interface TGuidRef {
  href: string;
  sourcedId: string;
  type: TGuidRefType;
}

const COLLECTION_OF: Readonly<Record<TGuidRefType, string>> = {
  org: "orgs",
  academicSession: "academicSessions",
  course: "courses",
  class: "classes",
  user: "users",
};

/** Each type's href up to its id, for the last base URL asked (there is one per server). */
let hrefPrefixes: { baseUrl: string; of: Readonly<Record<TGuidRefType, string>> } | null = null;

function hrefPrefix(baseUrl: string, type: TGuidRefType): string {
  if (hrefPrefixes?.baseUrl !== baseUrl) {
    const of = Object.fromEntries(Object.entries(COLLECTION_OF).map(([type, collection]) => [type, `${baseUrl}${ROSTERING_PATH}/${collection}/`]));
    hrefPrefixes = { baseUrl, of: of as Record<TGuidRefType, string> };
  }
  return hrefPrefixes.of[type];
}

/** A GUIDRef (href, sourcedId, type); `baseUrl` is the Hub's base URL, without a trailing slash. */
export function guidRef(baseUrl: string, type: TGuidRefType, sourcedId: string): TGuidRef {
  return { href: hrefPrefix(baseUrl, type) + sourcedId, sourcedId, type };
}

/** What every row brings: its id (as the application sees it), whether it is gone, and when it last changed. */
export interface TRowBase {
  sourcedId: string;
  /** Deleted in the Hub within the retention window: `status: tobedeleted`. */
  deleted: boolean;
  modifiedAt: Date;
}

interface TBaseObject {
  sourcedId: string;
  status: "active" | "tobedeleted";
  /** UTC, with milliseconds: "MUST contain the UTC timezone". */
  dateLastModified: string;
}

/**
 * Every object starts with these three members (TBaseObject), written out in each builder's
 * literal: an object spread (`...base(row)`, or `...(x ? { x } : {})` for an optional member)
 * made each object about 2.5 times as costly to build and to serialize (a page of 1,000
 * enrollments: 15 ms of CPU against 6). An optional member is `undefined` when absent, which
 * JSON leaves out.
 */
const statusOf = (row: TRowBase): TBaseObject["status"] => (row.deleted ? "tobedeleted" : "active");

// ---------------------------------------------------------------- orgs

export interface TOrgRow extends TRowBase {
  name: string;
  kind: "network" | "school";
  /** The parent, when the application sees it. */
  parentId: string | null;
  /** The children the application sees. */
  childIds: readonly string[];
}

/** A network is a `district` (OneRoster's "a group of schools"), a school a `school`. */
export function orgObject(baseUrl: string, row: TOrgRow) {
  return {
    sourcedId: row.sourcedId,
    status: statusOf(row),
    dateLastModified: row.modifiedAt.toISOString(),
    name: row.name,
    type: row.kind === "school" ? ("school" as const) : ("district" as const),
    // Required by the model; the Hub keeps no external code (INEP) for an institution.
    identifier: "",
    parent: row.parentId ? guidRef(baseUrl, "org", row.parentId) : undefined,
    children: row.childIds.map((id) => guidRef(baseUrl, "org", id)),
  };
}

// ---------------------------------------------------------------- academic sessions

export interface TSessionRow extends TRowBase {
  title: string;
  /** YYYY-MM-DD */
  startDate: string;
  /** YYYY-MM-DD */
  endDate: string;
  /** The period's code (a year, "2026", by the Hub's convention). */
  code: string;
}

/**
 * A period is a `schoolYear`. `schoolYear` is "the school year for the academic session ... in
 * the format YYYY": the code when it is a year, else the year the period ends in.
 */
export function academicSessionObject(row: TSessionRow) {
  return {
    sourcedId: row.sourcedId,
    status: statusOf(row),
    dateLastModified: row.modifiedAt.toISOString(),
    title: row.title,
    startDate: row.startDate,
    endDate: row.endDate,
    type: "schoolYear" as const,
    children: [],
    schoolYear: /^\d{4}$/.test(row.code) ? row.code : row.endDate.slice(0, 4),
  };
}

// ---------------------------------------------------------------- courses

export interface TCourseRow extends TRowBase {
  /** The grade (série) its classes share; null for classes without one. */
  grade: string | null;
  periodId: string;
  periodCode: string;
  institutionId: string;
}

/** A course is a grade of one period at one institution: every class of that grade is one of its sections. */
export function courseTitle(grade: string | null, periodCode: string): string {
  return `${grade ?? "Sem série"} — ${periodCode}`;
}

export function courseObject(baseUrl: string, row: TCourseRow) {
  return {
    sourcedId: row.sourcedId,
    status: statusOf(row),
    dateLastModified: row.modifiedAt.toISOString(),
    title: courseTitle(row.grade, row.periodCode),
    schoolYear: guidRef(baseUrl, "academicSession", row.periodId),
    courseCode: row.grade ?? "",
    grades: row.grade ? [row.grade] : [],
    org: guidRef(baseUrl, "org", row.institutionId),
  };
}

// ---------------------------------------------------------------- classes

export interface TSubjectRef {
  name: string;
  code: string | null;
}

export interface TClassRow extends TRowBase {
  title: string;
  grade: string | null;
  /** Turno (manhã, tarde...): kept in metadata, OneRoster has no field for it. */
  shift: string | null;
  courseId: string;
  institutionId: string;
  periodId: string;
  /** The subjects taught in the class (its teachers' assignments), in name order. */
  subjects: readonly TSubjectRef[];
}

/** A class (turma) is a `homeroom`: its students take every subject together. */
export function classObject(baseUrl: string, row: TClassRow) {
  return {
    sourcedId: row.sourcedId,
    status: statusOf(row),
    dateLastModified: row.modifiedAt.toISOString(),
    metadata: row.shift ? { "hub.turno": row.shift } : undefined,
    title: row.title,
    classCode: row.title,
    classType: "homeroom" as const,
    grades: row.grade ? [row.grade] : [],
    subjects: row.subjects.map((s) => s.name),
    course: guidRef(baseUrl, "course", row.courseId),
    school: guidRef(baseUrl, "org", row.institutionId),
    terms: [guidRef(baseUrl, "academicSession", row.periodId)],
    subjectCodes: row.subjects.map((s) => s.code ?? ""),
    periods: [],
  };
}

// ---------------------------------------------------------------- users

export type THubRole = "aluno" | "professor" | "responsavel" | "gestor";

export type TUserRole = "student" | "teacher" | "guardian" | "siteAdministrator" | "districtAdministrator";

/** A manager (gestor) of a school administers a site; of a network, a district. */
export function userRole(role: THubRole, institutionKind: "network" | "school"): TUserRole {
  switch (role) {
    case "aluno":
      return "student";
    case "professor":
      return "teacher";
    case "responsavel":
      return "guardian";
    case "gestor":
      return institutionKind === "school" ? "siteAdministrator" : "districtAdministrator";
  }
}

export interface TUserRow extends TRowBase {
  /** The person (every profile of one person has the same one), as the application sees it. */
  masterId: string;
  role: THubRole;
  institutionId: string;
  institutionKind: "network" | "school";
  /** undefined: not shared with the application; otherwise plain or its pseudonym. */
  name?: string | null;
  email?: string | null;
  phone?: string | null;
  cpf?: string | null;
  /** Guardians of a student, students of a guardian (as the application sees their ids). */
  agentIds: readonly string[];
}

/**
 * The Hub keeps one full name; OneRoster wants given and family names. The first word is the
 * given name, the rest the family name (a one-word name has an empty family name). A name the
 * school does not share leaves both empty: the model requires the members, not a value.
 */
export function splitName(name: string | null | undefined): { givenName: string; familyName: string } {
  const words = (name ?? "").trim().split(/\s+/).filter(Boolean);
  return { givenName: words[0] ?? "", familyName: words.slice(1).join(" ") };
}

export function userObject(baseUrl: string, row: TUserRow) {
  const org = guidRef(baseUrl, "org", row.institutionId);
  const { givenName, familyName } = splitName(row.name);
  return {
    sourcedId: row.sourcedId,
    status: statusOf(row),
    dateLastModified: row.modifiedAt.toISOString(),
    userMasterIdentifier: row.masterId,
    userIds: row.cpf ? [{ type: "CPF", identifier: row.cpf }] : [],
    enabledUser: row.deleted ? ("false" as const) : ("true" as const),
    givenName,
    familyName,
    roles: [{ roleType: "primary" as const, role: userRole(row.role, row.institutionKind), org }],
    primaryOrg: org,
    email: row.email || undefined,
    phone: row.phone || undefined,
    agents: row.agentIds.map((id) => guidRef(baseUrl, "user", id)),
  };
}

// ---------------------------------------------------------------- enrollments

export interface TEnrollmentRow extends TRowBase {
  role: "student" | "teacher";
  userId: string;
  classId: string;
  institutionId: string;
  /** For a teacher: the subject taught in the class (a teacher with two subjects has two enrollments). */
  subject?: { sourcedId: string; name: string; code: string | null } | null;
}

export function enrollmentObject(baseUrl: string, row: TEnrollmentRow) {
  return {
    sourcedId: row.sourcedId,
    status: statusOf(row),
    dateLastModified: row.modifiedAt.toISOString(),
    metadata: row.subject ? { "hub.disciplina": row.subject } : undefined,
    user: guidRef(baseUrl, "user", row.userId),
    class: guidRef(baseUrl, "class", row.classId),
    school: guidRef(baseUrl, "org", row.institutionId),
    role: row.role,
    primary: "false" as const,
  };
}

// ---------------------------------------------------------------- demographics

export interface TDemographicsRow extends TRowBase {
  /** YYYY-MM-DD; undefined when the school does not share it in plain (a pseudonym is no date). */
  birthDate?: string | null;
}

export function demographicsObject(row: TDemographicsRow) {
  return { sourcedId: row.sourcedId, status: statusOf(row), dateLastModified: row.modifiedAt.toISOString(), birthDate: row.birthDate || undefined };
}
