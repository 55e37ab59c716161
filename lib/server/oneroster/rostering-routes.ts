// The read endpoints of the OneRoster 1.2 Rostering service (REST binding), as data: which source
// a path reads, with which extra conditions, under which scope, in which envelope. Every GET of
// the service's OpenAPI document is here (docs/oneroster.md lists them).
import { OneRosterError } from "@/lib/oneroster/status";
import { ONEROSTER_SCOPES as SCOPES, type TOneRosterScope } from "@/lib/oneroster/scopes";
import { classMembersSql, userClassesSql, type TSourceName } from "./rostering-sources";

export type TObjectKind = "org" | "academicSession" | "course" | "class" | "enrollment" | "user" | "demographics";

export interface TCollectionDef {
  source: TSourceName;
  kind: TObjectKind;
  /** The envelope's member for a collection and for one object. */
  plural: string;
  singular: string;
  /** Conditions on `src` every read of it has (students are the users whose role is student). */
  where: readonly string[];
  /**
   * The maintained counts that number it (EventCount's live records of these entities, of this
   * role), when a read has no other condition than an institution: X-Total-Count without a scan.
   */
  counted?: { entities: readonly string[]; role?: string };
}

const COLLECTIONS = {
  orgs: { source: "orgs", kind: "org", plural: "orgs", singular: "org", where: [] },
  schools: { source: "orgs", kind: "org", plural: "orgs", singular: "org", where: [`src.type = 'school'`] },
  academicSessions: { source: "academicSessions", kind: "academicSession", plural: "academicSessions", singular: "academicSession", where: [], counted: { entities: ["periodo"] } },
  // The Hub's periods are school years: it has no terms and no grading periods (docs/oneroster.md).
  terms: { source: "academicSessions", kind: "academicSession", plural: "academicSessions", singular: "academicSession", where: ["false"] },
  gradingPeriods: { source: "academicSessions", kind: "academicSession", plural: "academicSessions", singular: "academicSession", where: ["false"] },
  courses: { source: "courses", kind: "course", plural: "courses", singular: "course", where: [] },
  classes: { source: "classes", kind: "class", plural: "classes", singular: "class", where: [], counted: { entities: ["turma"] } },
  enrollments: { source: "enrollments", kind: "enrollment", plural: "enrollments", singular: "enrollment", where: [], counted: { entities: ["turmaAluno", "disciplinaProfessor"] } },
  users: { source: "users", kind: "user", plural: "users", singular: "user", where: [], counted: { entities: ["usuario"] } },
  students: { source: "users", kind: "user", plural: "users", singular: "user", where: [`src.role = 'student'`], counted: { entities: ["usuario"], role: "aluno" } },
  teachers: { source: "users", kind: "user", plural: "users", singular: "user", where: [`src.role = 'teacher'`], counted: { entities: ["usuario"], role: "professor" } },
  demographics: { source: "users", kind: "demographics", plural: "demographics", singular: "demographics", where: [], counted: { entities: ["usuario"] } },
} as const satisfies Record<string, TCollectionDef>;

export type TCollectionName = keyof typeof COLLECTIONS;

/** Collections whose ids name people: the client's ids are its pairwise ids. */
const PERSON_COLLECTIONS: ReadonlySet<TCollectionName> = new Set(["enrollments", "users", "students", "teachers", "demographics"]);

const CORE: readonly TOneRosterScope[] = [SCOPES.roster, SCOPES.rosterCore];
const ROSTER: readonly TOneRosterScope[] = [SCOPES.roster];
const DEMOGRAPHICS: readonly TOneRosterScope[] = [SCOPES.rosterDemographics];

/** An id of the path, and whether it is one of the application's pairwise ids. */
export interface TPathId {
  value: string;
  person: boolean;
}

/** A condition on `src` that needs path ids bound as parameters: `bind(id)` returns its placeholder. */
export type TCondition = (bind: (id: TPathId) => string) => string;

export interface TParentCheck {
  collection: TCollectionName;
  id: TPathId;
  /** More conditions the parent must meet (the class must be of the school). */
  where?: TCondition[];
}

export interface TRosteringRoute {
  collection: TCollectionDef;
  /** The collection's name in the path, for the Link header's base URL. */
  single: TPathId | null;
  where: TCondition[];
  /** Objects the path names that must exist (and be read by the application), checked first: else 404. */
  parents: TParentCheck[];
  scopes: readonly TOneRosterScope[];
  /**
   * Set when `where` only narrows the collection to one institution of the path (or to none):
   * its X-Total-Count can come from the maintained counts (collection.counted), and a page reads
   * only that institution.
   */
  countIn?: { institution: TPathId | null };
  /**
   * `where` names a few records (the users of a class, the classes of a user): a page finds them
   * first and reads those, instead of walking each institution's records in order.
   */
  few?: boolean;
}

const COLLECTION_NAMES = new Set(Object.keys(COLLECTIONS));

function collectionNamed(name: string): TCollectionName | null {
  return COLLECTION_NAMES.has(name) ? (name as TCollectionName) : null;
}

/** Half of a UTF-16 surrogate pair without its other half: not text PostgreSQL can hold. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The longest id the path may carry: the Hub's are UUIDs (36). */
const MAX_ID_LENGTH = 200;

/**
 * An id of the path, or a 404 for one that can name nothing: too long, with a control character
 * (PostgreSQL refuses NUL in text) or not well-formed Unicode.
 */
function pathId(collection: TCollectionName, value: string): TPathId {
  if (value.length === 0 || value.length > MAX_ID_LENGTH || /[\u0000-\u001f\u007f]/.test(value) || LONE_SURROGATE.test(value)) {
    throw new OneRosterError("unknownobject", "Unknown Object: no such identifier.");
  }
  return { value, person: PERSON_COLLECTIONS.has(collection) };
}
const is = (column: string, id: TPathId): TCondition => (bind) => `${column} = ${bind(id)}`;

/** The users of a class with `role` (its enrollments as of T). */
const inClass = (classId: TPathId, role: "student" | "teacher", school?: TPathId): TCondition => (bind) =>
  `src.sid IN (${classMembersSql(bind(classId), role === "student" ? "turmaAluno" : "disciplinaProfessor", school ? bind(school) : null)})`;

/** The classes a user is enrolled in. */
const ofUser = (userId: TPathId): TCondition => (bind) => `src.sid IN (${userClassesSql(bind(userId))})`;

function unknownPath(): OneRosterError {
  return new OneRosterError("unknownobject", "Unknown Object: no such endpoint in the OneRoster 1.2 Rostering service.");
}

/** The route for the path segments after `/ims/oneroster/rostering/v1p2/`, or a 404 OneRosterError. */
export function rosteringRoute(segments: readonly string[]): TRosteringRoute {
  const [first, id, sub, id2, sub2, ...rest] = segments;
  const name = first === undefined ? null : collectionNamed(first);
  if (!name || rest.length > 0) throw unknownPath();
  const top = COLLECTIONS[name];
  if (id === undefined) return { collection: top, single: null, where: [], parents: [], scopes: name === "demographics" ? DEMOGRAPHICS : CORE, countIn: { institution: null } };
  const self = pathId(name, id);
  if (sub === undefined) return { collection: top, single: self, where: [], parents: [], scopes: name === "demographics" ? DEMOGRAPHICS : CORE };
  const nested = (collection: TCollectionName, where: TCondition[], parents: TParentCheck[] = [{ collection: name, id: self }]): TRosteringRoute => ({
    collection: COLLECTIONS[collection],
    single: null,
    where,
    parents,
    scopes: ROSTER,
  });
  /** A collection of the school in the path: counted at that school. */
  const ofSchool = (collection: TCollectionName): TRosteringRoute => ({ ...nested(collection, [is("src.inst", self)]), countIn: { institution: self } });
  const route = ((): TRosteringRoute | null => {
    if (name === "schools" && id2 === undefined) {
      switch (sub) {
        case "classes":
          return ofSchool("classes");
        case "courses":
          return ofSchool("courses");
        case "enrollments":
          return ofSchool("enrollments");
        case "students":
          return ofSchool("students");
        case "teachers":
          return ofSchool("teachers");
        case "terms":
          return nested("terms", []);
      }
      return null;
    }
    if (name === "schools" && sub === "classes" && id2 !== undefined) {
      const classId = pathId("classes", id2);
      const parents: TParentCheck[] = [{ collection: "schools", id: self }, { collection: "classes", id: classId, where: [is("src.inst", self)] }];
      switch (sub2) {
        case "enrollments":
          return nested("enrollments", [is("src.inst", self), is("src.class_id", classId)], parents);
        case "students":
          return { ...nested("students", [inClass(classId, "student", self)], parents), few: true };
        case "teachers":
          return { ...nested("teachers", [inClass(classId, "teacher", self)], parents), few: true };
      }
      return null;
    }
    if (id2 !== undefined) return null;
    if (name === "classes" && sub === "students") return { ...nested("students", [inClass(self, "student")]), few: true };
    if (name === "classes" && sub === "teachers") return { ...nested("teachers", [inClass(self, "teacher")]), few: true };
    if (name === "courses" && sub === "classes") return nested("classes", [is("src.course", self)]);
    if ((name === "users" || name === "students" || name === "teachers") && sub === "classes") return { ...nested("classes", [ofUser(self)]), few: true };
    if (name === "terms" && sub === "classes") return nested("classes", [is("src.period", self)]);
    if (name === "terms" && sub === "gradingPeriods") return nested("gradingPeriods", []);
    return null;
  })();
  if (!route) throw unknownPath();
  return route;
}

export function collectionDef(name: TCollectionName): TCollectionDef {
  return COLLECTIONS[name];
}

/** The top-level fields of each kind of object, in the model's order: what `fields` may name. */
export const SELECTABLE_FIELDS: Readonly<Record<TObjectKind, readonly string[]>> = {
  org: ["sourcedId", "status", "dateLastModified", "metadata", "name", "type", "identifier", "parent", "children"],
  academicSession: ["sourcedId", "status", "dateLastModified", "metadata", "title", "startDate", "endDate", "type", "parent", "children", "schoolYear"],
  course: ["sourcedId", "status", "dateLastModified", "metadata", "title", "schoolYear", "courseCode", "grades", "subjects", "org", "subjectCodes", "resources"],
  class: ["sourcedId", "status", "dateLastModified", "metadata", "title", "classCode", "classType", "location", "grades", "subjects", "course", "school", "terms", "subjectCodes", "periods", "resources"],
  enrollment: ["sourcedId", "status", "dateLastModified", "metadata", "user", "class", "school", "role", "primary", "beginDate", "endDate"],
  user: [
    "sourcedId", "status", "dateLastModified", "metadata", "userMasterIdentifier", "username", "userIds", "enabledUser", "givenName", "familyName",
    "middleName", "preferredFirstName", "preferredMiddleName", "preferredLastName", "pronouns", "roles", "userProfiles", "primaryOrg", "identifier",
    "email", "sms", "phone", "agents", "grades", "password", "resources",
  ],
  demographics: [
    "sourcedId", "status", "dateLastModified", "metadata", "birthDate", "sex", "americanIndianOrAlaskaNative", "asian", "blackOrAfricanAmerican",
    "nativeHawaiianOrOtherPacificIslander", "white", "demographicRaceTwoOrMoreRaces", "hispanicOrLatinoEthnicity", "countryOfBirthCode",
    "stateOfBirthAbbreviation", "cityOfBirth", "publicSchoolResidenceStatus",
  ],
};
