// OneRoster 1.2 on the served hub, read by software we did not write (issue #43, point 6):
// `openapi-client-axios` builds its client at run time from 1EdTech's own OpenAPI definition of
// the Rostering service (test/fixtures/oneroster, unmodified), calls each operation by its
// operationId, and every answer — collections, single objects, nested collections and refusals —
// is validated by Ajv against that same definition's schemas. Nothing here knows the Hub's code.
import { readFileSync } from "node:fs";
import path from "node:path";
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { OpenAPIClientAxios, type OpenAPIClient } from "openapi-client-axios";
import { expect, test } from "./fixtures";

const DEFINITION_FILE = path.join(import.meta.dirname, "..", "test", "fixtures", "oneroster", "onerosterv1p2rostersservice_openapi3_v1p0.json");
type TDefinition = { paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }> }>> };
const definition = JSON.parse(readFileSync(DEFINITION_FILE, "utf8")) as TDefinition;

// The demo application, with OneRoster enabled at the demo network by the seed.
const CLIENT_ID = "demo-app";
const CLIENT_SECRET = "demo-secret";

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(definition as object, "oneroster");

/** The validator of an operation's response body for `status`, from the definition. */
function validatorFor(operationId: string, status: number): ValidateFunction {
  for (const operations of Object.values(definition.paths)) {
    for (const operation of Object.values(operations)) {
      if (operation.operationId !== operationId) continue;
      const response = operation.responses[String(status)] ?? operation.responses.default;
      const ref = response?.content?.["application/json"]?.schema.$ref;
      if (!ref) throw new Error(`${operationId} has no JSON schema for ${status}`);
      return ajv.getSchema(`oneroster${ref}`) ?? ajv.compile({ $ref: `oneroster${ref}` });
    }
  }
  throw new Error(`no operation ${operationId}`);
}

type TAnswer = { status: number; data: Record<string, unknown>; headers: Record<string, string> };

/**
 * Calls an operation and checks its body against the definition's schema for the status it got
 * (`schema: false` for a `fields` selection: the schema requires every required member, which a
 * selection by design leaves out).
 */
async function call(client: OpenAPIClient, operationId: string, parameters: Record<string, unknown> = {}, expected = 200, { schema = true } = {}): Promise<TAnswer> {
  const operation = (client as unknown as Record<string, (params: Record<string, unknown>) => Promise<TAnswer>>)[operationId];
  if (!operation) throw new Error(`the client has no ${operationId}`);
  const answer = await operation(parameters);
  expect(answer.status, `${operationId} ${JSON.stringify(parameters)}: ${JSON.stringify(answer.data).slice(0, 400)}`).toBe(expected);
  if (!schema) return answer;
  const validate = validatorFor(operationId, answer.status);
  expect(validate(answer.data), `${operationId}: ${ajv.errorsText(validate.errors)}`).toBe(true);
  return answer;
}

async function connect(baseURL: string, scope?: string): Promise<OpenAPIClient> {
  const api = new OpenAPIClientAxios({
    definition: structuredClone(definition) as never, // openapi-client-axios reads a parsed document (a string would be fetched as a URL)
    withServer: { url: `${baseURL}/ims/oneroster/rostering/v1p2` },
    // Arrays as the definition declares them (style form, explode): fields=a&fields=b, not axios's fields[]=a.
    axiosConfigDefaults: { validateStatus: () => true, paramsSerializer: { indexes: null } },
  });
  const client = await api.init();
  const form = new URLSearchParams({ grant_type: "client_credentials", ...(scope ? { scope } : {}) });
  const token = await client.post(`${baseURL}/ims/oneroster/token`, form.toString(), {
    auth: { username: CLIENT_ID, password: CLIENT_SECRET },
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  expect(token.status, JSON.stringify(token.data)).toBe(200);
  client.defaults.headers.common.Authorization = `Bearer ${(token.data as { access_token: string }).access_token}`;
  return client;
}

const SCOPE = "https://purl.imsglobal.org/spec/or/v1p2/scope/";

const ids = (answer: TAnswer, member: string) => (answer.data[member] as { sourcedId: string }[]).map((o) => o.sourcedId);

test.describe("the OneRoster 1.2 Rostering service, through 1EdTech's definition", () => {
  test("every collection, one object of each and the nested collections validate against the standard's schemas", async ({ baseURL }) => {
    const client = await connect(baseURL!, `${SCOPE}roster.readonly ${SCOPE}roster-core.readonly`);
    const orgs = await call(client, "getAllOrgs");
    expect(ids(orgs, "orgs").length).toBeGreaterThan(1);
    const schools = await call(client, "getAllSchools", { limit: 100 });
    await call(client, "getOrg", { sourcedId: ids(orgs, "orgs")[0]! });
    const sessions = await call(client, "getAllAcademicSessions");
    await call(client, "getAcademicSession", { sourcedId: ids(sessions, "academicSessions")[0]! });
    await call(client, "getAllTerms");
    await call(client, "getAllGradingPeriods");
    const courses = await call(client, "getAllCourses");
    await call(client, "getCourse", { sourcedId: ids(courses, "courses")[0]! });
    // A school and one of its classes with students and teachers: other browser tests add schools
    // and classes to the demo network (empty, or with students and no teacher), and any of them may
    // come first in sourcedId order.
    let school = "";
    let classId = "";
    let students: TAnswer | null = null;
    let teachers: TAnswer | null = null;
    for (const candidate of ids(schools, "orgs")) {
      const classes = await call(client, "getClassesForSchool", { schoolSourcedId: candidate });
      for (const inClass of ids(classes, "classes")) {
        const [found, teaching] = [await call(client, "getStudentsForClass", { classSourcedId: inClass }), await call(client, "getTeachersForClass", { classSourcedId: inClass })];
        if (ids(found, "users").length > 0 && ids(teaching, "users").length > 0) [school, classId, students, teachers] = [candidate, inClass, found, teaching];
        if (students) break;
      }
      if (students) break;
    }
    expect(students, "a class with students and teachers").not.toBeNull();
    await call(client, "getSchool", { sourcedId: school });
    await call(client, "getAllClasses", { limit: 5 });
    await call(client, "getClass", { sourcedId: classId });
    await call(client, "getClassesForCourse", { courseSourcedId: ids(courses, "courses")[0]! });
    await call(client, "getEnrollmentsForClassInSchool", { schoolSourcedId: school, classSourcedId: classId });
    await call(client, "getStudentsForClassInSchool", { schoolSourcedId: school, classSourcedId: classId });
    await call(client, "getTeachersForClassInSchool", { schoolSourcedId: school, classSourcedId: classId });
    await call(client, "getCoursesForSchool", { schoolSourcedId: school });
    await call(client, "getEnrollmentsForSchool", { schoolSourcedId: school, limit: 5 });
    await call(client, "getStudentsForSchool", { schoolSourcedId: school, limit: 5 });
    await call(client, "getTeachersForSchool", { schoolSourcedId: school });
    await call(client, "getTermsForSchool", { schoolSourcedId: school });
    const student = ids(students!, "users")[0]!;
    expect(student).toBeTruthy();
    await call(client, "getStudent", { sourcedId: student });
    await call(client, "getUser", { sourcedId: student });
    await call(client, "getClassesForStudent", { studentSourcedId: student });
    await call(client, "getClassesForUser", { userSourcedId: student });
    const teacher = ids(teachers!, "users")[0]!;
    await call(client, "getTeacher", { sourcedId: teacher });
    await call(client, "getClassesForTeacher", { teacherSourcedId: teacher });
    const enrollments = await call(client, "getAllEnrollments", { limit: 5 });
    await call(client, "getEnrollment", { sourcedId: ids(enrollments, "enrollments")[0]! });
    await call(client, "getAllUsers", { limit: 5 });
    await call(client, "getAllStudents", { limit: 5 });
    await call(client, "getAllTeachers", { limit: 5 });
    await call(client, "getAllDemographics", { limit: 5 }, 403);
  });

  test("the query language: filter, sort, fields, paging headers; refusals carry the status payload", async ({ baseURL }) => {
    const client = await connect(baseURL!);
    const teachers = await call(client, "getAllUsers", { filter: "roles.role='teacher'", sort: "familyName", orderBy: "asc", limit: 2 });
    const total = Number(teachers.headers["x-total-count"]);
    expect(total).toBeGreaterThan(2);
    expect(teachers.headers.link).toContain('rel="next"');
    // Walk every page: each teacher once (teachers: other browser tests import students by the thousand).
    const seen = new Set<string>();
    for (let offset = 0; offset < total; offset += 2) {
      for (const id of ids(await call(client, "getAllUsers", { filter: "roles.role='teacher'", sort: "familyName", limit: 2, offset }), "users")) seen.add(id);
    }
    expect(seen.size).toBe(total);
    const named = await call(client, "getAllUsers", { fields: ["sourcedId", "givenName"], limit: 2 }, 200, { schema: false });
    for (const user of named.data.users as Record<string, unknown>[]) expect(Object.keys(user).sort()).toEqual(["givenName", "sourcedId"]);
    await call(client, "getAllUsers", { filter: "givenName=" }, 400);
    await call(client, "getAllUsers", { filter: "shoeSize='42'" }, 400);
    await call(client, "getAllUsers", { fields: ["shoeSize"] }, 400);
    await call(client, "getUser", { sourcedId: "00000000-0000-4000-8000-000000000000" }, 404);
  });

  test("a token without the demographics scope is refused there; with it, demographics validate", async ({ baseURL }) => {
    const client = await connect(baseURL!, `${SCOPE}roster-demographics.readonly`);
    const demographics = await call(client, "getAllDemographics", { limit: 5 });
    await call(client, "getDemographics", { sourcedId: ids(demographics, "demographics")[0]! });
    await call(client, "getAllUsers", {}, 403);
  });

  test("without a token: 401 with the status payload and a Bearer challenge", async ({ baseURL }) => {
    const api = new OpenAPIClientAxios({ definition: structuredClone(definition) as never, withServer: { url: `${baseURL}/ims/oneroster/rostering/v1p2` }, axiosConfigDefaults: { validateStatus: () => true } });
    const client = await api.init();
    const answer = await call(client, "getAllUsers", {}, 401);
    expect(answer.headers["www-authenticate"]).toMatch(/^Bearer realm="OneRoster"/);
  });
});
