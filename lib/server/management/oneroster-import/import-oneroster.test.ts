// The OneRoster 1.2 CSV import against the embedded database: the manager's own export imported
// back changes nothing, a student information system's file imported twice makes no duplicates,
// bulk and delta deletes go through the services (events), and one bad row keeps everything out.
import { strToU8, zipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { csvLine, CSV_HEADERS, manifestRows, type TCsvFile, type TFileMode } from "@/lib/oneroster/csv-binding";
import { db } from "@/lib/server/db/database";
import { openRosteringExport } from "@/lib/server/oneroster/export-rostering";
import { rosteringZipStream } from "@/lib/server/oneroster/rostering-zip";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { setupTestDatabase } from "@/test/database";
import { createSchool, type TSchool } from "@/test/fixtures/launch";
import { TEST_ISSUER } from "@/test/fixtures/oauth";
import { resolveManagerScope, type TManagerScope } from "../resolve-manager-scope";
import { importOneRoster } from "./import-oneroster";
import { waitForOneRosterCut } from "@/test/fixtures/oneroster";

setupTestDatabase();

let s: TSchool;
let scope: TManagerScope;
let schoolName = "";

const events = async () => db().changeEvent.count();


/** A zip of the given files (rows under their 1.2 header), with a manifest naming each file's mode. */
function oneRosterZip(files: Partial<Record<TCsvFile, { mode: TFileMode; rows: Record<string, string>[] }>>): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  const modes: Partial<Record<TCsvFile, TFileMode>> = {};
  for (const [file, { mode, rows }] of Object.entries(files) as [TCsvFile, { mode: TFileMode; rows: Record<string, string>[] }][]) {
    modes[file] = mode;
    const header = CSV_HEADERS[file];
    entries[`${file}.csv`] = strToU8(csvLine(header) + rows.map((row) => csvLine(header.map((h) => row[h] ?? ""))).join(""));
  }
  entries["manifest.csv"] = strToU8(manifestRows(modes, { systemName: "SIS", systemCode: "sis" }).map(csvLine).join(""));
  return zipSync(entries);
}

async function importZip(zip: Uint8Array, dryRun = false) {
  return importOneRoster({ scope, institutionId: s.networkId, zip, dryRun });
}

/** A student information system's file: its own ids, a school by name, a new year, class, student and teacher. */
function sisFile(mode: TFileMode, extra: { classTerm?: string; withTeacher?: boolean } = {}) {
  const withTeacher = extra.withTeacher ?? true;
  return oneRosterZip({
    orgs: { mode, rows: [{ sourcedId: "SCH-1", name: schoolName, type: "school" }] },
    academicSessions: { mode, rows: [{ sourcedId: "SY-2027", title: "Ano letivo 2027", type: "schoolYear", startDate: "2027-02-01", endDate: "2027-12-10", schoolYear: "2027" }] },
    courses: { mode, rows: [{ sourcedId: "CRS-8", title: "8º ano", orgSourcedId: "SCH-1", schoolYearSourcedId: "SY-2027" }] },
    classes: {
      mode,
      rows: [{ sourcedId: "CLS-8A", title: "8º ano A", grades: "8", courseSourcedId: "CRS-8", classType: "homeroom", schoolSourcedId: "SCH-1", termSourcedIds: extra.classTerm ?? "SY-2027", subjects: "Ciências", "metadata.hub.turno": "manha" }],
    },
    users: {
      mode,
      rows: [
        { sourcedId: "STU-1", enabledUser: "true", givenName: "Beatriz", familyName: "Lopes Dias", email: "beatriz.sis@escola.test", userIds: "{CPF:529.982.247-25}" },
        ...(withTeacher ? [{ sourcedId: "TCH-1", enabledUser: "true", givenName: "Otávio", familyName: "Meireles", email: "otavio.sis@escola.test" }] : []),
      ],
    },
    roles: {
      mode,
      rows: [
        { sourcedId: "R-1", userSourcedId: "STU-1", roleType: "primary", role: "student", orgSourcedId: "SCH-1" },
        ...(withTeacher ? [{ sourcedId: "R-2", userSourcedId: "TCH-1", roleType: "primary", role: "teacher", orgSourcedId: "SCH-1" }] : []),
      ],
    },
    enrollments: {
      mode,
      rows: [
        { sourcedId: "E-1", classSourcedId: "CLS-8A", schoolSourcedId: "SCH-1", userSourcedId: "STU-1", role: "student" },
        ...(withTeacher ? [{ sourcedId: "E-2", classSourcedId: "CLS-8A", schoolSourcedId: "SCH-1", userSourcedId: "TCH-1", role: "teacher" }] : []),
      ],
    },
  });
}

async function managerExport(): Promise<Uint8Array> {
  await waitForOneRosterCut();
  const stream = rosteringZipStream(await openRosteringExport({ kind: "manager", institutionId: s.networkId }), { demographics: true });
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

beforeAll(async () => {
  process.env.HUB_BASE_URL = TEST_ISSUER;
  process.env.HUB_SECRET = "oneroster-import-test-secret-0123456789";
  resetEnvCache();
  s = await createSchool();
  schoolName = (await db().institution.findUniqueOrThrow({ where: { id: s.schoolId } })).name;
  const manager = await createPerson({ name: "Gestora Rede" });
  const profile = await createProfile({ personId: manager.id, institutionId: s.networkId, role: "gestor" });
  scope = await resolveManagerScope({ personId: manager.id, profileId: profile.id });
}, 60_000);

describe("OneRoster CSV import", () => {
  it("importing the zip the manager's export produced changes nothing: no event is written", async () => {
    const zip = await managerExport();
    const before = await events();
    const result = await importZip(zip);
    expect(result).toMatchObject({ ok: true });
    expect(await events()).toBe(before);
  });

  it("a row error: nothing is written, and the error names the file, the line and the column in Portuguese", async () => {
    const before = await events();
    const result = await importZip(sisFile("delta", { classTerm: "SY-1999" }));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rowErrors).toEqual([{ file: "classes.csv", line: 2, messages: [expect.stringMatching(/^coluna termSourcedIds: ano letivo SY-1999 não encontrado/)] }]);
    expect(await events()).toBe(before);
    expect(await db().person.count({ where: { email: "beatriz.sis@escola.test" } })).toBe(0);
    expect(await db().period.count({ where: { institutionId: s.schoolId, code: "2027" } })).toBe(0);
  });

  it("a student information system's file, with its own ids, imported twice: created once, then nothing changes", async () => {
    const before = await events();
    const first = await importZip(sisFile("delta"));
    expect(first).toMatchObject({ ok: true });
    const period = await db().period.findUniqueOrThrow({ where: { institutionId_code: { institutionId: s.schoolId, code: "2027" } } });
    const cls = await db().class.findUniqueOrThrow({ where: { periodId_name: { periodId: period.id, name: "8º ano A" } } });
    expect(cls).toMatchObject({ grade: "8", shift: "manha", institutionId: s.schoolId });
    const beatriz = await db().person.findUniqueOrThrow({ where: { email: "beatriz.sis@escola.test" }, include: { profiles: true } });
    expect(beatriz).toMatchObject({ name: "Beatriz Lopes Dias", cpf: "52998224725" });
    expect(beatriz.profiles.map((p) => p.role)).toEqual(["aluno"]);
    expect(await db().classStudent.count({ where: { classId: cls.id } })).toBe(1);
    const teaching = await db().subjectTeacher.findFirstOrThrow({ where: { classId: cls.id }, include: { subject: true } });
    expect(teaching.subject.name).toBe("Ciências");
    const written = (await events()) - before;
    // period, subject, class, two people's profiles, an enrollment and a teaching assignment.
    expect(written).toBe(7);

    const second = await importZip(sisFile("delta"));
    expect(second).toMatchObject({ ok: true });
    expect((await events()) - before).toBe(written);
    expect(await db().class.count({ where: { periodId: period.id } })).toBe(1);
    expect(await db().person.count({ where: { email: { in: ["beatriz.sis@escola.test", "otavio.sis@escola.test"] } } })).toBe(2);
    expect(await db().oneRosterSourcedId.count({ where: { institutionId: s.networkId } })).toBeGreaterThanOrEqual(4);

    // And the export of what it made (CPF, shift, subjects, a teacher's subject) reads back unchanged too.
    const exported = await managerExport();
    const settled = await events();
    expect(await importZip(exported)).toMatchObject({ ok: true });
    expect(await events()).toBe(settled);
  });

  it("bulk: what the subtree has and a bulk file leaves out is deleted through the services (delete events); tobedeleted deletes in delta", async () => {
    const before = await db().changeEvent.count({ where: { kind: "delete" } });
    // enrollments.csv in bulk without the teacher: the teacher's assignment and every other enrollment of the network go.
    const zip = oneRosterZip({
      enrollments: { mode: "bulk", rows: [{ sourcedId: "E-1", classSourcedId: "CLS-8A", schoolSourcedId: "SCH-1", userSourcedId: "STU-1", role: "student" }] },
    });
    const checked = await importZip(zip, true);
    expect(checked).toMatchObject({ ok: true, imported: 0 });
    expect(await db().changeEvent.count({ where: { kind: "delete" } })).toBe(before);
    expect(await importZip(zip)).toMatchObject({ ok: true });
    const teacherLeft = await db().subjectTeacher.count({ where: { teacher: { person: { email: "otavio.sis@escola.test" } } } });
    expect(teacherLeft).toBe(0);
    expect(await db().classStudent.count({ where: { studentId: s.student.id } })).toBe(0);
    expect(await db().classStudent.count({ where: { student: { person: { email: "beatriz.sis@escola.test" } } } })).toBe(1);
    const deletes = (await db().changeEvent.count({ where: { kind: "delete" } })) - before;
    expect(deletes).toBeGreaterThanOrEqual(3);

    const delta = oneRosterZip({
      enrollments: { mode: "delta", rows: [{ sourcedId: "E-1", status: "tobedeleted", dateLastModified: "2027-03-01T00:00:00.000Z", classSourcedId: "CLS-8A", schoolSourcedId: "SCH-1", userSourcedId: "STU-1", role: "student" }] },
    });
    expect(await importZip(delta)).toMatchObject({ ok: true });
    expect(await db().classStudent.count({ where: { student: { person: { email: "beatriz.sis@escola.test" } } } })).toBe(0);
  });

  it("refuses what the Hub does not hold: an org outside the network, a term that is not a school year, an unknown role", async () => {
    const zip = oneRosterZip({
      orgs: { mode: "delta", rows: [{ sourcedId: "OTHER", name: "Escola Desconhecida", type: "school" }] },
      academicSessions: { mode: "delta", rows: [{ sourcedId: "T1", title: "1º bimestre", type: "gradingPeriod", startDate: "2027-02-01", endDate: "2027-04-10", schoolYear: "2027" }] },
      users: { mode: "delta", rows: [{ sourcedId: "AIDE", enabledUser: "true", givenName: "Rita", familyName: "Sá" }] },
      roles: { mode: "delta", rows: [{ sourcedId: "RA", userSourcedId: "AIDE", roleType: "primary", role: "aide", orgSourcedId: s.schoolId }] },
    });
    const result = await importZip(zip);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const byFile = Object.fromEntries(result.rowErrors.map((e) => [e.file, e.messages.join(" ")]));
    expect(byFile["orgs.csv"]).toMatch(/não está nesta rede/);
    expect(byFile["academicSessions.csv"]).toMatch(/coluna type: .*anos letivos/);
    expect(byFile["roles.csv"]).toMatch(/coluna role: o papel "aide" não existe no Hub/);
  });

  it("enabledUser=false removes the user like tobedeleted: an existing student's profile goes, their enrollment row is skipped, an unknown user is not created", async () => {
    const beatriz = await db().person.findUniqueOrThrow({ where: { email: "beatriz.sis@escola.test" }, include: { profiles: true } });
    expect(beatriz.profiles.map((p) => p.role)).toEqual(["aluno"]);
    const deletes = await db().changeEvent.count({ where: { kind: "delete" } });
    const result = await importZip(
      oneRosterZip({
        users: {
          mode: "delta",
          rows: [
            { sourcedId: "STU-1", enabledUser: "FALSE", givenName: "Beatriz", familyName: "Lopes Dias", email: "beatriz.sis@escola.test" },
            { sourcedId: "GHOST", enabledUser: "false", givenName: "Ana", familyName: "Fantasma", email: "ghost.sis@escola.test" },
          ],
        },
        roles: {
          mode: "delta",
          rows: [
            { sourcedId: "R-1", userSourcedId: "STU-1", roleType: "primary", role: "student", orgSourcedId: "SCH-1" },
            { sourcedId: "R-7", userSourcedId: "GHOST", roleType: "primary", role: "student", orgSourcedId: s.schoolId },
          ],
        },
        enrollments: { mode: "delta", rows: [{ sourcedId: "E-1", classSourcedId: "CLS-8A", schoolSourcedId: "SCH-1", userSourcedId: "STU-1", role: "student" }] },
        demographics: { mode: "delta", rows: [{ sourcedId: "GHOST", birthDate: "2012-05-04" }] },
      }),
    );
    expect(result).toMatchObject({ ok: true });
    expect(await db().profile.count({ where: { personId: beatriz.id } })).toBe(0);
    expect(await db().classStudent.count({ where: { student: { personId: beatriz.id } } })).toBe(0);
    expect(await db().person.count({ where: { email: "ghost.sis@escola.test" } })).toBe(0);
    expect((await db().changeEvent.count({ where: { kind: "delete" } })) - deletes).toBe(1);
  });

  it("enabledUser other than true, false or blank is a row error on that column", async () => {
    const before = await events();
    const result = await importZip(
      oneRosterZip({
        users: { mode: "delta", rows: [{ sourcedId: "STU-4", enabledUser: "maybe", givenName: "Rosa", familyName: "Lima", email: "rosa.sis@escola.test" }] },
        roles: { mode: "delta", rows: [{ sourcedId: "R-8", userSourcedId: "STU-4", roleType: "primary", role: "student", orgSourcedId: s.schoolId }] },
      }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rowErrors).toEqual([{ file: "users.csv", line: 2, messages: [expect.stringMatching(/^coluna enabledUser: "maybe" não é aceito: use true, ou false/)] }]);
    expect(await events()).toBe(before);
  });
});
