import { describe, expect, it } from "vitest";
import {
  cellsOf,
  csvLine,
  CSV_HEADERS,
  joinName,
  manifestRows,
  objectToRow,
  parseClass,
  parseEnrollment,
  parseManifest,
  parseUser,
  parseUserIds,
  roleRows,
  splitList,
} from "./csv-binding";
import { classObject, enrollmentObject, splitName, userObject } from "./objects";

const BASE = "https://hub.test";
const at = new Date("2026-03-01T12:00:00.000Z");

describe("headers are the 1.2 binding's", () => {
  it("users.csv has no role or org columns (1.2 moved them to roles.csv) and starts with the base columns", () => {
    expect(CSV_HEADERS.users.slice(0, 6)).toEqual(["sourcedId", "status", "dateLastModified", "enabledUser", "username", "userIds"]);
    expect(CSV_HEADERS.users).not.toContain("role");
    expect(CSV_HEADERS.users).not.toContain("orgSourcedIds");
    expect(CSV_HEADERS.roles).toEqual(["sourcedId", "status", "dateLastModified", "userSourcedId", "roleType", "role", "beginDate", "endDate", "orgSourcedId", "userProfileSourcedId"]);
  });

  it("the Hub's extensions are metadata.* columns after the standard ones", () => {
    expect(CSV_HEADERS.classes.at(-1)).toBe("metadata.hub.turno");
    expect(CSV_HEADERS.enrollments.at(-1)).toBe("metadata.hub.disciplina");
  });

  it("every row has as many cells as its header", () => {
    const cls = classObject(BASE, { sourcedId: "c1", deleted: false, modifiedAt: at, title: "7A", grade: "7", shift: "manha", courseId: "k", institutionId: "s", periodId: "p", subjects: [] });
    expect(objectToRow("classes", cls, "bulk")).toHaveLength(CSV_HEADERS.classes.length);
    expect(objectToRow("demographics", { sourcedId: "u", birthDate: "2012-01-02" }, "bulk")).toHaveLength(CSV_HEADERS.demographics.length);
  });
});

describe("cells", () => {
  it("quotes a cell with a comma, a quote or a line break (RFC 4180), CRLF ends the line", () => {
    expect(csvLine(["a", "b,c", 'd"e', "f\ng"])).toBe('a,"b,c","d""e","f\ng"\r\n');
  });

  it("lists join with commas and split back, blanks dropped", () => {
    expect(splitList(" a, b,,c ")).toEqual(["a", "b", "c"]);
  });

  it("userIds are {type:identifier} items; anything else is refused", () => {
    expect(parseUserIds("{CPF:52998224725},{SIS: 42 }")).toEqual([{ type: "CPF", identifier: "52998224725" }, { type: "SIS", identifier: "42" }]);
    expect(parseUserIds("")).toEqual([]);
    expect(parseUserIds("52998224725")).toBeNull();
  });

  it("a name split by objects.ts joins back with its spaces normalised", () => {
    const { givenName, familyName } = splitName("  Ana   Maria  Souza ");
    expect(joinName(givenName, familyName)).toBe("Ana Maria Souza");
    expect(joinName("Ana", "")).toBe("Ana");
  });
});

describe("object → row → object", () => {
  it("a class: GUIDRefs become their sourcedId columns, the term list one cell, the shift its metadata column; bulk leaves status and date blank", () => {
    const cls = classObject(BASE, {
      sourcedId: "c1",
      deleted: false,
      modifiedAt: at,
      title: "7º ano A",
      grade: "7º ano",
      shift: "manha",
      courseId: "course-1",
      institutionId: "school-1",
      periodId: "period-1",
      subjects: [{ name: "Matemática", code: "MAT" }, { name: "Português", code: null }],
    });
    const bulk = objectToRow("classes", cls, "bulk");
    expect(bulk.slice(0, 3)).toEqual(["c1", "", ""]);
    const delta = objectToRow("classes", cls, "delta");
    expect(delta.slice(1, 3)).toEqual(["active", "2026-03-01T12:00:00.000Z"]);
    const parsed = parseClass(cellsOf(CSV_HEADERS.classes, bulk));
    expect(parsed).toMatchObject({
      sourcedId: "c1",
      status: null,
      title: "7º ano A",
      grades: ["7º ano"],
      courseSourcedId: "course-1",
      classType: "homeroom",
      schoolSourcedId: "school-1",
      termSourcedIds: ["period-1"],
      subjects: ["Matemática", "Português"],
      subjectCodes: ["MAT", ""],
      shift: "manha",
    });
  });

  it("a user: one users.csv row and one roles.csv row per role, the org as orgSourcedId", () => {
    const user = userObject(BASE, {
      sourcedId: "u1",
      deleted: false,
      modifiedAt: at,
      masterId: "person-1",
      role: "aluno",
      institutionId: "school-1",
      institutionKind: "school",
      name: "Júlia Prado Lima",
      email: "julia@escola.test",
      cpf: "52998224725",
      agentIds: ["g1", "g2"],
    });
    const row = objectToRow("users", user, "bulk");
    const parsed = parseUser(cellsOf(CSV_HEADERS.users, row));
    expect(parsed).toMatchObject({
      sourcedId: "u1",
      enabledUser: "true",
      givenName: "Júlia",
      familyName: "Prado Lima",
      email: "julia@escola.test",
      userIds: [{ type: "CPF", identifier: "52998224725" }],
      agentSourcedIds: ["g1", "g2"],
      primaryOrgSourcedId: "school-1",
    });
    expect(cellsOf(CSV_HEADERS.users, row).userMasterIdentifier).toBe("person-1");
    expect(roleRows(user, "bulk")).toEqual([["u1", "", "", "u1", "primary", "student", "", "", "school-1", ""]]);
  });

  it("a teacher's enrollment carries its subject's name in metadata.hub.disciplina", () => {
    const enrollment = enrollmentObject(BASE, {
      sourcedId: "e1",
      deleted: true,
      modifiedAt: at,
      role: "teacher",
      userId: "u1",
      classId: "c1",
      institutionId: "s1",
      subject: { sourcedId: "sub", name: "Matemática", code: null },
    });
    const parsed = parseEnrollment(cellsOf(CSV_HEADERS.enrollments, objectToRow("enrollments", enrollment, "delta")));
    expect(parsed).toEqual({ sourcedId: "e1", status: "tobedeleted", classSourcedId: "c1", schoolSourcedId: "s1", userSourcedId: "u1", role: "teacher", subject: "Matemática" });
  });
});

describe("manifest", () => {
  it("writes every file.* property of 1.2, absent unless given, and reads it back", () => {
    const rows = manifestRows({ users: "bulk", roles: "bulk", orgs: "bulk" }, { systemName: "Hub", systemCode: "hub" });
    expect(rows[0]).toEqual(["propertyName", "value"]);
    expect(rows).toContainEqual(["manifest.version", "1.0"]);
    expect(rows).toContainEqual(["oneroster.version", "1.2"]);
    expect(rows).toContainEqual(["file.lineItems", "absent"]);
    const manifest = parseManifest(rows);
    expect(manifest).toMatchObject({ ok: true, systemName: "Hub", unsupported: [] });
    if (manifest.ok) expect(manifest.files).toMatchObject({ users: "bulk", roles: "bulk", orgs: "bulk", classes: "absent" });
  });

  it("refuses another version or mode, and lists the files the Hub does not read", () => {
    expect(parseManifest([["propertyName", "value"], ["manifest.version", "1.0"], ["oneroster.version", "1.1"]])).toMatchObject({ ok: false });
    expect(parseManifest([["propertyName", "value"], ["manifest.version", "1.0"], ["oneroster.version", "1.2"], ["file.users", "full"]])).toMatchObject({ ok: false });
    expect(parseManifest([["propertyName", "value"], ["manifest.version", "1.0"], ["oneroster.version", "1.2"], ["file.results", "bulk"]])).toMatchObject({ ok: true, unsupported: ["results"] });
  });
});
