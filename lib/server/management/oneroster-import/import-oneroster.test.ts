// The OneRoster 1.2 CSV import against the embedded database: the manager's own export imported
// back changes nothing, a student information system's file imported twice makes no duplicates,
// bulk and delta deletes go through the services (events), and one bad row keeps everything out.
import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { csvLine, CSV_HEADERS, manifestRows, type TCsvFile, type TFileMode } from "@/lib/oneroster/csv-binding";
import { db } from "@/lib/server/db/database";
import { openRosteringExport } from "@/lib/server/oneroster/export-rostering";
import { rosteringZipStream } from "@/lib/server/oneroster/rostering-zip";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { linkGuardian } from "@/lib/server/school-data/link-guardian";
import { setupTestDatabase } from "@/test/database";
import { createSchool, type TSchool } from "@/test/fixtures/launch";
import { TEST_ISSUER } from "@/test/fixtures/oauth";
import { parseCsv } from "../parse-csv";
import { resolveManagerScope, type TManagerScope } from "../resolve-manager-scope";
import { importOneRoster } from "./import-oneroster";
import { waitForOneRosterCut } from "@/test/fixtures/oneroster";

setupTestDatabase();

let s: TSchool;
let scope: TManagerScope;
let schoolName = "";

const events = async () => db().changeEvent.count();
const links = async () => db().guardianStudent.count({ where: { student: { institutionId: s.schoolId } } });


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

type TTable = { header: string[]; rows: string[][] };

/** A zip's users.csv, as cells. */
function usersTable(zip: Uint8Array): TTable {
  const parsed = parseCsv(strFromU8(unzipSync(zip)["users.csv"]!));
  if (!parsed.ok) throw new Error(parsed.message);
  return { header: parsed.header, rows: parsed.rows.map((r) => r.values) };
}

/** The zip with users.csv rewritten by `edit`. */
function withUsers(zip: Uint8Array, edit: (table: TTable) => TTable): Uint8Array {
  const entries = unzipSync(zip);
  const edited = edit(usersTable(zip));
  entries["users.csv"] = strToU8(csvLine(edited.header) + edited.rows.map((row) => csvLine(row)).join(""));
  return zipSync(entries);
}

/** A system's guardian and student at the school (delta), each with the agentSourcedIds given. */
function familyFile(agents: { guardian: string; student: string }) {
  return oneRosterZip({
    orgs: { mode: "delta", rows: [{ sourcedId: "SCH-1", name: schoolName, type: "school" }] },
    users: {
      mode: "delta",
      rows: [
        { sourcedId: "STU-2", enabledUser: "true", givenName: "Helena", familyName: "Souto", email: "helena.sis@escola.test", agentSourcedIds: agents.student },
        { sourcedId: "GRD-2", enabledUser: "true", givenName: "Paulo", familyName: "Souto", email: "paulo.sis@escola.test", agentSourcedIds: agents.guardian },
      ],
    },
    roles: {
      mode: "delta",
      rows: [
        { sourcedId: "R-3", userSourcedId: "STU-2", roleType: "primary", role: "student", orgSourcedId: "SCH-1" },
        { sourcedId: "R-4", userSourcedId: "GRD-2", roleType: "primary", role: "guardian", orgSourcedId: "SCH-1" },
      ],
    },
  });
}

const linkEvents = (kind: "insert" | "delete") => db().changeEvent.count({ where: { entity: "responsavelAluno", kind } });

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
  // A guardian link, so that the export read back carries agentSourcedIds.
  await linkGuardian({ guardianId: s.guardian.id, studentId: s.student.id });
}, 60_000);

describe("OneRoster CSV import", () => {
  it("importing the zip the manager's export produced changes nothing: no event is written", async () => {
    const zip = await managerExport();
    const users = usersTable(zip);
    const column = users.header.indexOf("agentSourcedIds");
    // The guardian link is written on both users: the guardian lists the student and the student the guardian.
    expect(users.rows.find((r) => r[0] === s.guardian.id)?.[column]).toBe(s.student.id);
    expect(users.rows.find((r) => r[0] === s.student.id)?.[column]).toBe(s.guardian.id);
    const before = await events();
    const result = await importZip(zip);
    expect(result).toMatchObject({ ok: true });
    expect(await events()).toBe(before);
    expect(await links()).toBe(1);
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

  it("agentSourcedIds: a guardian and a student of a system's file who name each other are linked once (one event), and the same file again changes nothing", async () => {
    const before = await events();
    const inserts = await linkEvents("insert");
    const linked = await links();
    expect(await importZip(familyFile({ guardian: "STU-2", student: "GRD-2" }))).toMatchObject({ ok: true });
    expect(await links()).toBe(linked + 1);
    const link = await db().guardianStudent.findFirstOrThrow({ where: { student: { person: { email: "helena.sis@escola.test" } } }, include: { guardian: { include: { person: true } }, student: true } });
    expect(link).toMatchObject({ kinship: null, student: { role: "aluno", institutionId: s.schoolId }, guardian: { role: "responsavel", institutionId: s.schoolId, person: { email: "paulo.sis@escola.test" } } });
    expect((await linkEvents("insert")) - inserts).toBe(1);
    // Two profiles and the link.
    expect((await events()) - before).toBe(3);

    const settled = await events();
    expect(await importZip(familyFile({ guardian: "STU-2", student: "GRD-2" }))).toMatchObject({ ok: true });
    expect(await events()).toBe(settled);
    expect(await links()).toBe(linked + 1);
  });

  it("agentSourcedIds: an unknown agent, or two users who are not guardian and student at one school, are row errors and nothing is written", async () => {
    const before = await events();
    const result = await importZip(
      oneRosterZip({
        users: {
          mode: "delta",
          rows: [
            { sourcedId: "STU-3", enabledUser: "true", givenName: "Davi", familyName: "Moura", email: "davi.sis@escola.test", agentSourcedIds: "NOPE" },
            { sourcedId: "TCH-3", enabledUser: "true", givenName: "Vera", familyName: "Moura", email: "vera.sis@escola.test", agentSourcedIds: "STU-3" },
          ],
        },
        roles: {
          mode: "delta",
          rows: [
            { sourcedId: "R-5", userSourcedId: "STU-3", roleType: "primary", role: "student", orgSourcedId: s.schoolId },
            { sourcedId: "R-6", userSourcedId: "TCH-3", roleType: "primary", role: "teacher", orgSourcedId: s.schoolId },
          ],
        },
      }),
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.rowErrors).toEqual([
      { file: "users.csv", line: 2, messages: ["coluna agentSourcedIds: usuário NOPE não está em users.csv nem nesta rede"] },
      { file: "users.csv", line: 3, messages: [expect.stringMatching(/^coluna agentSourcedIds: STU-3 e este usuário não são responsável e aluno na mesma escola: em roles\.csv, .*guardian.*student/)] },
    ]);
    expect(await events()).toBe(before);
    expect(await db().person.count({ where: { email: { in: ["davi.sis@escola.test", "vera.sis@escola.test"] } } })).toBe(0);
  });

  it("bulk users.csv: without the agentSourcedIds column links stay; with it, a link no row lists is removed (delete event)", async () => {
    const exported = await managerExport();
    const linked = await links();
    expect(linked).toBe(2);
    const withoutColumn = withUsers(exported, ({ header, rows }) => {
      const column = header.indexOf("agentSourcedIds");
      return { header: header.filter((_, i) => i !== column), rows: rows.map((row) => row.filter((_, i) => i !== column)) };
    });
    const before = await events();
    expect(await importZip(withoutColumn)).toMatchObject({ ok: true });
    expect(await events()).toBe(before);
    expect(await links()).toBe(linked);

    const deletes = await linkEvents("delete");
    const blank = withUsers(exported, ({ header, rows }) => {
      const column = header.indexOf("agentSourcedIds");
      return { header, rows: rows.map((row) => row.map((cell, i) => (i === column ? "" : cell))) };
    });
    expect(await importZip(blank)).toMatchObject({ ok: true });
    expect(await links()).toBe(0);
    expect((await linkEvents("delete")) - deletes).toBe(linked);
    // Only the links went: every profile is still there.
    expect((await events()) - before).toBe(linked);
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
