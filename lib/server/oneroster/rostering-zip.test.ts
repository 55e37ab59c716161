// The OneRoster 1.2 CSV export against the embedded database: the zip an application downloads
// (files, exact headers, the sharing rule, the same pairwise ids as the REST binding) and its
// authorisation.
import { unzipSync } from "fflate";
import { NextRequest } from "next/server";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as exportGet } from "@/app/ims/oneroster/csv/v1p2/export/route";
import { resetEnvCache } from "@/lib/env";
import { CSV_HEADERS } from "@/lib/oneroster/csv-binding";
import { database, db } from "@/lib/server/db/database";
import { linkGuardian } from "@/lib/server/school-data/link-guardian";
import { parseCsv } from "@/lib/server/management/parse-csv";
import { setupTestDatabase } from "@/test/database";
import { createSchool, type TSchool } from "@/test/fixtures/launch";
import { createTestApp, TEST_ISSUER, type TTestApp } from "@/test/fixtures/oauth";
import { readRostering } from "./read-rostering";
import { courseIdFor } from "./rostering-sources";
import { oneRosterToken, waitForOneRosterCut } from "@/test/fixtures/oneroster";

setupTestDatabase();

const SCOPE = "https://purl.imsglobal.org/spec/or/v1p2/scope/";
let s: TSchool;
let app: TTestApp;


async function download(token: string | null): Promise<Response> {
  return exportGet(new NextRequest(new URL("/ims/oneroster/csv/v1p2/export", TEST_ISSUER), { headers: token ? { authorization: `Bearer ${token}` } : {} }));
}

type TTable = { header: string[]; rows: Record<string, string>[] };
function tables(zip: Uint8Array): Map<string, TTable> {
  const out = new Map<string, TTable>();
  for (const [name, data] of Object.entries(unzipSync(zip))) {
    const parsed = parseCsv(new TextDecoder().decode(data));
    if (!parsed.ok) {
      out.set(name, { header: [], rows: [] });
      continue;
    }
    out.set(name, { header: parsed.header, rows: parsed.rows.map((r) => Object.fromEntries(parsed.header.map((h, i) => [h, r.values[i] ?? ""]))) });
  }
  return out;
}


beforeAll(async () => {
  process.env.HUB_BASE_URL = TEST_ISSUER;
  process.env.HUB_SECRET = "oneroster-csv-test-secret-0123456789";
  resetEnvCache();
  s = await createSchool();
  await linkGuardian({ guardianId: s.guardian.id, studentId: s.student.id });
  app = await createTestApp("Exportação CSV");
  await db().edtechLink.create({ data: { institutionId: s.networkId, edtechId: app.edtechId } });
  await db().applicationAccess.create({
    data: { institutionId: s.networkId, applicationId: app.id, allowedAttributes: ["nome_usuario", "email_usuario", "idade"], anonymizedAttributes: ["email_usuario"], oneRoster: true },
  });
  await waitForOneRosterCut();
}, 60_000);

describe("GET /ims/oneroster/csv/v1p2/export", () => {
  it("no token: 401 with the binding's status payload and a Bearer challenge", async () => {
    const response = await download(null);
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm="OneRoster"/);
    expect(await response.json()).toMatchObject({ imsx_codeMajor: "failure", imsx_CodeMinor: { imsx_codeMinorField: [{ imsx_codeMinorFieldValue: "unauthorisedrequest" }] } });
  });

  it("a demographics-only token may not export the core files (403 forbidden)", async () => {
    const response = await download(await oneRosterToken(app, `${SCOPE}roster-demographics.readonly`));
    expect(response.status).toBe(403);
    expect(response.headers.get("www-authenticate")).toContain("insufficient_scope");
  });

  it("a full token: a zip with the manifest and every Rostering file, the 1.2 headers exactly, bulk mode", async () => {
    const response = await download(await oneRosterToken(app));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="oneroster-.*\.zip"$/);
    const files = tables(new Uint8Array(await response.arrayBuffer()));
    expect([...files.keys()]).toEqual(["manifest.csv", "orgs.csv", "academicSessions.csv", "courses.csv", "classes.csv", "users.csv", "roles.csv", "enrollments.csv", "demographics.csv"]);
    for (const name of ["orgs", "academicSessions", "courses", "classes", "users", "roles", "enrollments", "demographics"] as const) {
      expect(files.get(`${name}.csv`)!.header).toEqual(CSV_HEADERS[name]);
    }
    const manifest = new Map(files.get("manifest.csv")!.rows.map((r) => [r.propertyName, r.value]));
    expect(manifest.get("oneroster.version")).toBe("1.2");
    expect(manifest.get("file.users")).toBe("bulk");
    expect(manifest.get("file.results")).toBe("absent");
    // Bulk rows leave status and dateLastModified blank.
    expect(files.get("classes.csv")!.rows.every((r) => r.status === "" && r.dateLastModified === "")).toBe(true);
    const cls = files.get("classes.csv")!.rows.find((r) => r.sourcedId === s.classId)!;
    expect(cls.schoolSourcedId).toBe(s.schoolId);
    const period = (await db().class.findUniqueOrThrow({ where: { id: s.classId } })).periodId;
    expect(cls.courseSourcedId).toBe(courseIdFor(s.schoolId, period, null));
    expect(files.get("courses.csv")!.rows.map((r) => r.sourcedId)).toContain(courseIdFor(s.schoolId, period, null));
  });

  it("users under the rule: the anonymised e-mail is the pseudonym; ids in users.csv, roles.csv and enrollments.csv are the REST binding's pairwise ids", async () => {
    const token = await oneRosterToken(app);
    const files = tables(new Uint8Array(await (await download(token)).arrayBuffer()));
    const rest = (await readRostering({ segments: ["users"], query: new URLSearchParams("limit=1000"), authorization: `Bearer ${token}` })).body as { users: { sourcedId: string; email?: string; givenName: string }[] };
    const users = files.get("users.csv")!.rows;
    expect(users.map((u) => u.sourcedId).sort()).toEqual(rest.users.map((u) => u.sourcedId).sort());
    const julia = users.find((u) => u.givenName === "Júlia")!;
    expect(julia.email).not.toBe(s.student.email);
    expect(julia.email).toBe(rest.users.find((u) => u.sourcedId === julia.sourcedId)!.email);
    expect(julia.sourcedId).not.toBe(s.student.id);
    expect(users.flatMap((u) => [u.sourcedId, u.userMasterIdentifier])).not.toContain(s.student.id);
    // The guardian is an agent of the student, by its pairwise id.
    expect(julia.agentSourcedIds!.split(",").every((id) => users.some((u) => u.sourcedId === id))).toBe(true);
    const roles = files.get("roles.csv")!.rows;
    expect(roles.find((r) => r.userSourcedId === julia.sourcedId)).toMatchObject({ role: "student", roleType: "primary", orgSourcedId: s.schoolId });
    const restEnrollments = (await readRostering({ segments: ["enrollments"], query: new URLSearchParams("limit=1000"), authorization: `Bearer ${token}` })).body as { enrollments: { sourcedId: string; user: { sourcedId: string } }[] };
    const enrollments = files.get("enrollments.csv")!.rows;
    expect(enrollments.map((e) => `${e.sourcedId}|${e.userSourcedId}`).sort()).toEqual(restEnrollments.enrollments.map((e) => `${e.sourcedId}|${e.user.sourcedId}`).sort());
    expect(enrollments.find((e) => e.role === "teacher")!["metadata.hub.disciplina"]).toBe("Matemática");
  });

  it("a token without roster-demographics.readonly (roster.readonly excludes demographics) gets no demographics.csv", async () => {
    const files = tables(new Uint8Array(await (await download(await oneRosterToken(app, `${SCOPE}roster.readonly`))).arrayBuffer()));
    expect(files.has("demographics.csv")).toBe(false);
    expect(new Map(files.get("manifest.csv")!.rows.map((r) => [r.propertyName, r.value])).get("file.demographics")).toBe("absent");
  });

  it("courseIdFor computes the SQL's id", async () => {
    const [row] = await database().sql.query<{ id: string }>(`SELECT md5('hub/oneroster/course/' || $1 || '/' || $2 || '/' || coalesce($3, ''))::uuid::text AS id`, [s.schoolId, s.classId, "7º ano"]);
    expect(courseIdFor(s.schoolId, s.classId, "7º ano")).toBe(row!.id);
  });
});
