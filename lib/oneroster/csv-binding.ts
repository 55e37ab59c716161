// The OneRoster 1.2 CSV binding: file names, column headers, and the mapping between a row and
// the JSON objects of lib/oneroster/objects.ts, both ways. Pure (no I/O): the export streams rows
// built here and the import (lib/server/oneroster/csv-import) reads rows parsed here.
//
// Headers: the 1.2 CSV binding (1EdTech, "OneRoster: CSV Binding" 1.2.1), in its column order.
// A GUIDRef becomes its sourcedId column (`org` → `orgSourcedId`, `terms` → `termSourcedIds`), a
// list is one cell with its values joined by commas, a user's roles are rows of roles.csv, and the
// Hub's own extensions are `metadata.*` columns after the standard ones (the binding's extension
// rule). In a bulk file `status` and `dateLastModified` are blank; in a delta file they are set.

export const MANIFEST_VERSION = "1.0";
export const ONEROSTER_VERSION = "1.2";

export type TCsvFile = "orgs" | "academicSessions" | "courses" | "classes" | "users" | "roles" | "enrollments" | "demographics";

/** The files of the Rostering part of the binding the Hub reads and writes, in dependency order. */
export const CSV_FILES: readonly TCsvFile[] = ["orgs", "academicSessions", "courses", "classes", "users", "roles", "enrollments", "demographics"];

/** Every `file.*` property of a 1.2 manifest (the Gradebook and Resources files are always absent here). */
export const MANIFEST_FILES = [
  "academicSessions",
  "categories",
  "classes",
  "classResources",
  "courses",
  "courseResources",
  "demographics",
  "enrollments",
  "lineItemLearningObjectiveIds",
  "lineItems",
  "lineItemScoreScales",
  "orgs",
  "resources",
  "resultLearningObjectiveIds",
  "results",
  "resultScoreScales",
  "roles",
  "scoreScales",
  "userProfiles",
  "userResources",
  "users",
] as const;

const BASE = ["sourcedId", "status", "dateLastModified"] as const;

/** The Hub's extension columns (metadata.* in the JSON objects). */
export const SHIFT_COLUMN = "metadata.hub.turno";
export const SUBJECT_COLUMN = "metadata.hub.disciplina";

/** The 1.2 headers, exactly, plus the Hub's metadata columns at the end. */
export const CSV_HEADERS: Readonly<Record<TCsvFile, readonly string[]>> = {
  orgs: [...BASE, "name", "type", "identifier", "parentSourcedId"],
  academicSessions: [...BASE, "title", "type", "startDate", "endDate", "parentSourcedId", "schoolYear"],
  courses: [...BASE, "schoolYearSourcedId", "title", "courseCode", "grades", "orgSourcedId", "subjects", "subjectCodes"],
  classes: [...BASE, "title", "grades", "courseSourcedId", "classCode", "classType", "location", "schoolSourcedId", "termSourcedIds", "subjects", "subjectCodes", "periods", SHIFT_COLUMN],
  users: [
    ...BASE,
    "enabledUser",
    "username",
    "userIds",
    "givenName",
    "familyName",
    "middleName",
    "identifier",
    "email",
    "sms",
    "phone",
    "agentSourcedIds",
    "grades",
    "password",
    "userMasterIdentifier",
    "preferredGivenName",
    "preferredMiddleName",
    "preferredFamilyName",
    "primaryOrgSourcedId",
    "pronouns",
  ],
  roles: [...BASE, "userSourcedId", "roleType", "role", "beginDate", "endDate", "orgSourcedId", "userProfileSourcedId"],
  enrollments: [...BASE, "classSourcedId", "schoolSourcedId", "userSourcedId", "role", "primary", "beginDate", "endDate", SUBJECT_COLUMN],
  demographics: [
    ...BASE,
    "birthDate",
    "sex",
    "americanIndianOrAlaskaNative",
    "asian",
    "blackOrAfricanAmerican",
    "nativeHawaiianOrOtherPacificIslander",
    "white",
    "demographicRaceTwoOrMoreRaces",
    "hispanicOrLatinoEthnicity",
    "countryOfBirthCode",
    "stateOfBirthAbbreviation",
    "cityOfBirth",
    "publicSchoolResidenceStatus",
  ],
};

/** The columns a row may not leave blank (the binding's required columns; status and dateLastModified only in delta files). */
export const REQUIRED_COLUMNS: Readonly<Record<TCsvFile, readonly string[]>> = {
  orgs: ["sourcedId", "name", "type"],
  academicSessions: ["sourcedId", "title", "type", "startDate", "endDate", "schoolYear"],
  courses: ["sourcedId", "title", "orgSourcedId"],
  classes: ["sourcedId", "title", "courseSourcedId", "classType", "schoolSourcedId", "termSourcedIds"],
  users: ["sourcedId", "enabledUser", "givenName", "familyName"],
  roles: ["sourcedId", "userSourcedId", "roleType", "role", "orgSourcedId"],
  enrollments: ["sourcedId", "classSourcedId", "schoolSourcedId", "userSourcedId", "role"],
  demographics: ["sourcedId"],
};

export type TFileMode = "bulk" | "delta" | "absent";

// ---------------------------------------------------------------- cells and lines

/** One CSV line (RFC 4180): a cell with a comma, a quote or a line break is quoted, quotes doubled; CRLF ends it. */
export function csvLine(cells: readonly string[]): string {
  return `${cells.map((cell) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell)).join(",")}\r\n`;
}

/** A list cell: the values joined by commas (the binding's "list of strings"). */
export const joinList = (values: readonly string[]) => values.join(",");

/** A list cell read back: split on commas, trimmed, blanks dropped. */
export const splitList = (cell: string | undefined) => (cell ?? "").split(",").map((v) => v.trim()).filter(Boolean);

/** userIds: `{type:identifier}` items, comma-separated. */
export function formatUserIds(ids: readonly { type: string; identifier: string }[]): string {
  return joinList(ids.map((id) => `{${id.type}:${id.identifier}}`));
}

export function parseUserIds(cell: string | undefined): { type: string; identifier: string }[] | null {
  const out: { type: string; identifier: string }[] = [];
  for (const item of (cell ?? "").match(/\{[^}]*\}|[^,\s]+/g) ?? []) {
    const match = /^\{\s*([^:}]+?)\s*:\s*([^}]*?)\s*\}$/.exec(item);
    if (!match) return null;
    out.push({ type: match[1]!, identifier: match[2]! });
  }
  return out;
}

// ---------------------------------------------------------------- manifest

export function manifestRows(files: Partial<Record<TCsvFile, TFileMode>>, source: { systemName: string; systemCode: string }): string[][] {
  const modes = files as Partial<Record<string, TFileMode>>;
  return [
    ["propertyName", "value"],
    ["manifest.version", MANIFEST_VERSION],
    ["oneroster.version", ONEROSTER_VERSION],
    ...MANIFEST_FILES.map((name) => [`file.${name}`, modes[name] ?? "absent"]),
    ["source.systemName", source.systemName],
    ["source.systemCode", source.systemCode],
  ];
}

export type TManifest =
  | { ok: true; files: Record<TCsvFile, TFileMode>; unsupported: string[]; systemName: string; systemCode: string }
  | { ok: false; message: string };

/**
 * A manifest's rows (header first) read: its versions and each file's mode. A Rostering file not
 * named is absent; `unsupported` lists the other files the manifest says are present (the Hub
 * has no Gradebook or Resources).
 */
export function parseManifest(rows: readonly (readonly string[])[]): TManifest {
  const [header, ...body] = rows;
  if (!header || header[0]?.trim() !== "propertyName" || header[1]?.trim() !== "value") return { ok: false, message: "manifest.csv deve ter as colunas propertyName,value." };
  const properties = new Map(body.map((row) => [(row[0] ?? "").trim(), (row[1] ?? "").trim()]));
  if (properties.get("manifest.version") !== MANIFEST_VERSION) return { ok: false, message: `manifest.csv: manifest.version deve ser ${MANIFEST_VERSION}.` };
  if (properties.get("oneroster.version") !== ONEROSTER_VERSION) return { ok: false, message: `manifest.csv: oneroster.version deve ser ${ONEROSTER_VERSION} (o Hub lê a versão 1.2 do formato).` };
  const files = {} as Record<TCsvFile, TFileMode>;
  for (const file of CSV_FILES) {
    const mode = properties.get(`file.${file}`) ?? "absent";
    if (mode !== "bulk" && mode !== "delta" && mode !== "absent") return { ok: false, message: `manifest.csv: file.${file} deve ser bulk, delta ou absent (está "${mode}").` };
    files[file] = mode;
  }
  const unsupported = MANIFEST_FILES.filter((name) => !(CSV_FILES as readonly string[]).includes(name) && (properties.get(`file.${name}`) ?? "absent") !== "absent");
  return { ok: true, files, unsupported, systemName: properties.get("source.systemName") ?? "", systemCode: properties.get("source.systemCode") ?? "" };
}

// ---------------------------------------------------------------- JSON object → row

type TRef = { sourcedId: string } | undefined;
type TObject = Record<string, unknown>;

const ref = (value: unknown) => (value as TRef)?.sourcedId ?? "";
const refs = (value: unknown) => joinList(((value as TRef[] | undefined) ?? []).map(ref));
const str = (value: unknown) => (value === undefined || value === null ? "" : String(value));
const list = (value: unknown) => joinList(((value as unknown[] | undefined) ?? []).map(str));
const meta = (object: TObject, key: string) => (object.metadata as Record<string, unknown> | undefined)?.[key];

/** The three base cells: blank in a bulk file (the binding), the object's in a delta file. */
function baseCells(object: TObject, mode: "bulk" | "delta"): string[] {
  return [str(object.sourcedId), mode === "bulk" ? "" : str(object.status), mode === "bulk" ? "" : str(object.dateLastModified)];
}

/** One object of `file`'s collection as its rows (a user gives its users.csv row; roles.csv rows come from roleRows). */
export function objectToRow(file: Exclude<TCsvFile, "roles">, object: TObject, mode: "bulk" | "delta"): string[] {
  const base = baseCells(object, mode);
  switch (file) {
    case "orgs":
      return [...base, str(object.name), str(object.type), str(object.identifier), ref(object.parent)];
    case "academicSessions":
      return [...base, str(object.title), str(object.type), str(object.startDate), str(object.endDate), ref(object.parent), str(object.schoolYear)];
    case "courses":
      return [...base, ref(object.schoolYear), str(object.title), str(object.courseCode), list(object.grades), ref(object.org), list(object.subjects), list(object.subjectCodes)];
    case "classes":
      return [
        ...base,
        str(object.title),
        list(object.grades),
        ref(object.course),
        str(object.classCode),
        str(object.classType),
        str(object.location),
        ref(object.school),
        refs(object.terms),
        list(object.subjects),
        list(object.subjectCodes),
        list(object.periods),
        str(meta(object, "hub.turno")),
      ];
    case "users":
      return [
        ...base,
        str(object.enabledUser),
        str(object.username),
        formatUserIds((object.userIds as { type: string; identifier: string }[] | undefined) ?? []),
        str(object.givenName),
        str(object.familyName),
        str(object.middleName),
        str(object.identifier),
        str(object.email),
        str(object.sms),
        str(object.phone),
        refs(object.agents),
        list(object.grades),
        "",
        str(object.userMasterIdentifier),
        str(object.preferredGivenName),
        str(object.preferredMiddleName),
        str(object.preferredFamilyName),
        ref(object.primaryOrg),
        str(object.pronouns),
      ];
    case "enrollments":
      return [
        ...base,
        ref(object.class),
        ref(object.school),
        ref(object.user),
        str(object.role),
        str(object.primary),
        str(object.beginDate),
        str(object.endDate),
        str((meta(object, "hub.disciplina") as { name?: string } | undefined)?.name),
      ];
    case "demographics":
      return [...base, str(object.birthDate), ...Array<string>(CSV_HEADERS.demographics.length - 4).fill("")];
  }
}

/**
 * A user's roles as roles.csv rows. The Hub's user is one profile with one role, so its role row
 * takes the user's sourcedId (unique within roles.csv, and stable).
 */
export function roleRows(user: TObject, mode: "bulk" | "delta"): string[][] {
  const roles = (user.roles as { roleType: string; role: string; org: TRef; beginDate?: string; endDate?: string }[] | undefined) ?? [];
  return roles.map((role, i) => [
    roles.length === 1 ? str(user.sourcedId) : `${str(user.sourcedId)}-${i + 1}`,
    mode === "bulk" ? "" : str(user.status),
    mode === "bulk" ? "" : str(user.dateLastModified),
    str(user.sourcedId),
    role.roleType,
    role.role,
    str(role.beginDate),
    str(role.endDate),
    ref(role.org),
    "",
  ]);
}

// ---------------------------------------------------------------- row → JSON-like record

/** A row's cells by column name (a column the file lacks reads as ""). */
export function cellsOf(header: readonly string[], values: readonly string[]): Record<string, string> {
  const cells: Record<string, string> = {};
  header.forEach((name, i) => (cells[name] = (values[i] ?? "").trim()));
  return cells;
}

const cell = (cells: Record<string, string>, name: string) => cells[name] ?? "";
const orNull = (value: string) => (value === "" ? null : value);

export interface TParsedBase {
  sourcedId: string;
  /** `tobedeleted` deletes the record in either mode; blank (bulk) or `active` keep it. */
  status: "active" | "tobedeleted" | null;
}

function parsedBase(cells: Record<string, string>): TParsedBase {
  const status = cell(cells, "status");
  return { sourcedId: cell(cells, "sourcedId"), status: status === "tobedeleted" ? "tobedeleted" : status === "active" ? "active" : null };
}

export const parseOrg = (c: Record<string, string>) => ({ ...parsedBase(c), name: cell(c, "name"), type: cell(c, "type"), parentSourcedId: orNull(cell(c, "parentSourcedId")) });

export const parseAcademicSession = (c: Record<string, string>) => ({
  ...parsedBase(c),
  title: cell(c, "title"),
  type: cell(c, "type"),
  startDate: cell(c, "startDate"),
  endDate: cell(c, "endDate"),
  schoolYear: cell(c, "schoolYear"),
});

export const parseCourse = (c: Record<string, string>) => ({
  ...parsedBase(c),
  title: cell(c, "title"),
  schoolYearSourcedId: orNull(cell(c, "schoolYearSourcedId")),
  orgSourcedId: cell(c, "orgSourcedId"),
  grades: splitList(cell(c, "grades")),
});

export const parseClass = (c: Record<string, string>) => ({
  ...parsedBase(c),
  title: cell(c, "title"),
  grades: splitList(cell(c, "grades")),
  courseSourcedId: cell(c, "courseSourcedId"),
  classType: cell(c, "classType"),
  schoolSourcedId: cell(c, "schoolSourcedId"),
  termSourcedIds: splitList(cell(c, "termSourcedIds")),
  subjects: splitList(cell(c, "subjects")),
  subjectCodes: cell(c, "subjectCodes") === "" ? [] : cell(c, "subjectCodes").split(",").map((v) => v.trim()),
  shift: orNull(cell(c, SHIFT_COLUMN)),
});

export const parseUser = (c: Record<string, string>) => ({
  ...parsedBase(c),
  enabledUser: cell(c, "enabledUser"),
  givenName: cell(c, "givenName"),
  familyName: cell(c, "familyName"),
  /** null: the cell is not a list of `{type:identifier}`. */
  userIds: parseUserIds(cell(c, "userIds")),
  email: orNull(cell(c, "email")),
  phone: orNull(cell(c, "phone")),
  agentSourcedIds: splitList(cell(c, "agentSourcedIds")),
  primaryOrgSourcedId: orNull(cell(c, "primaryOrgSourcedId")),
});

export const parseRole = (c: Record<string, string>) => ({
  ...parsedBase(c),
  userSourcedId: cell(c, "userSourcedId"),
  roleType: cell(c, "roleType"),
  role: cell(c, "role"),
  orgSourcedId: cell(c, "orgSourcedId"),
});

export const parseEnrollment = (c: Record<string, string>) => ({
  ...parsedBase(c),
  classSourcedId: cell(c, "classSourcedId"),
  schoolSourcedId: cell(c, "schoolSourcedId"),
  userSourcedId: cell(c, "userSourcedId"),
  role: cell(c, "role"),
  subject: orNull(cell(c, SUBJECT_COLUMN)),
});

export const parseDemographics = (c: Record<string, string>) => ({ ...parsedBase(c), birthDate: orNull(cell(c, "birthDate")) });

/** A full name again from the two columns (objects.ts splitName's inverse, spaces normalised). */
export function joinName(givenName: string, familyName: string): string {
  return `${givenName} ${familyName}`.trim().split(/\s+/).join(" ");
}
