// Generates a large network for benchmarks, through the same school-data services as every
// other writer, so each row has its real Data API event.
//   npm run seed:large -- --schools 10 --students-per-school 10000
import { parseArgs } from "node:util";
import { z } from "zod";
import type { Class } from "@/lib/generated/prisma/client";
import { configuredDatabase, createDatabase, database, setDatabase } from "@/lib/server/db/database";
import { applyMigrations } from "@/lib/server/db/migrate";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { assignTeacher } from "@/lib/server/school-data/assign-teacher";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { createSubject } from "@/lib/server/school-data/create-subject";
import { importStudents } from "@/lib/server/school-data/import-students";
import { birthDate, personName, syntheticCpf } from "@/prisma/seed/names";

const ZArgs = z.object({
  schools: z.coerce.number().int().min(1).max(1000),
  "students-per-school": z.coerce.number().int().min(1).max(1_000_000),
  "class-size": z.coerce.number().int().min(5).max(60).default(30),
});

const CHUNK = 1_000;
const SUBJECTS = ["Matemática", "Língua Portuguesa", "Ciências", "História"];

function progress(done: number, total: number, started: number) {
  const width = 30;
  const filled = Math.round((done / total) * width);
  const rate = done / ((performance.now() - started) / 1000 || 1);
  const eta = rate > 0 ? Math.round((total - done) / rate) : 0;
  process.stderr.write(`\r  [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total} students  ${Math.round(rate)}/s  ETA ${eta}s   `);
}

/**
 * One support teacher (AEE) per school, assigned to every class in every subject: a person with a
 * long history, so the benchmark's user_id page is a full 1,000 events (with 250 classes or more).
 */
async function addSupportTeacher(options: { schoolId: string; classes: Class[]; subjects: { id: string }[]; serial: number }): Promise<void> {
  const person = await createPerson({ name: `${personName(options.serial + 500)} (AEE)`, cpf: syntheticCpf(options.serial) });
  const teacher = await createProfile({ personId: person.id, institutionId: options.schoolId, role: "professor" });
  for (const cls of options.classes) {
    for (const subject of options.subjects) await assignTeacher({ classId: cls.id, subjectId: subject.id, teacherId: teacher.id });
  }
}

async function main() {
  const { values } = parseArgs({ options: { schools: { type: "string" }, "students-per-school": { type: "string" }, "class-size": { type: "string" } } });
  const parsed = ZArgs.safeParse(values);
  if (!parsed.success) {
    console.error("usage: npm run seed:large -- --schools N --students-per-school M [--class-size 30]");
    process.exit(2);
  }
  const { schools, "students-per-school": perSchool, "class-size": classSize } = parsed.data;
  // Bulk writes and migrations: no statement time limit (the server keeps its own).
  setDatabase(createDatabase({ ...configuredDatabase(), statementTimeoutMs: 0 }));
  await applyMigrations(database().sql);
  const runId = Date.now().toString(36);
  const network = await createInstitution({ name: `Rede de carga ${runId}`, kind: "network" });
  const total = schools * perSchool;
  const started = performance.now();
  let done = 0;
  let serial = 10_000_000 + Math.floor(Math.random() * 1_000_000) * 100;
  for (let s = 0; s < schools; s++) {
    const school = await createInstitution({ name: `Escola de carga ${s + 1} (${runId})`, kind: "school", parentId: network.id });
    const period = await createPeriod({ institutionId: school.id, code: "2026", name: "Ano letivo 2026", startsOn: "2026-02-02", endsOn: "2026-12-11" });
    const subjects = [];
    for (const name of SUBJECTS) subjects.push(await createSubject({ institutionId: school.id, name }));
    const classCount = Math.ceil(perSchool / classSize);
    const classes: Class[] = [];
    for (let c = 0; c < classCount; c++) {
      const cls = await createClass({ periodId: period.id, name: `Turma ${c + 1}` });
      const tp = await createPerson({ name: personName(serial + 500), cpf: syntheticCpf(serial++) });
      const teacher = await createProfile({ personId: tp.id, institutionId: school.id, role: "professor" });
      await assignTeacher({ classId: cls.id, subjectId: subjects[c % subjects.length]!.id, teacherId: teacher.id });
      classes.push(cls);
    }
    await addSupportTeacher({ schoolId: school.id, classes, subjects, serial: serial++ });
    for (let i = 0; i < perSchool; i += CHUNK) {
      const n = Math.min(CHUNK, perSchool - i);
      const students = Array.from({ length: n }, (_, k) => {
        const idx = serial++;
        return {
          person: { name: personName(idx), cpf: syntheticCpf(idx), birthDate: birthDate(idx, 10 + (idx % 8)), phone: `1198${String(idx).slice(-7)}` },
          classId: classes[(i + k) % classes.length]!.id,
        };
      });
      await importStudents({ institutionId: school.id, students });
      done += n;
      progress(done, total, started);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  process.stderr.write("\n");
  console.log(`Created network ${network.id}: ${schools} schools, ${total} students in ${seconds.toFixed(1)} s.`);
  await database().close();
}

main().catch(async (error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
