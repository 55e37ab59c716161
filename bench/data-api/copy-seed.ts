// Streams school data into PostgreSQL with COPY for the growth benchmark (bench/data-api/growth.ts):
// people, profiles, classes, enrolments, teaching assignments and the Data API event of each row,
// in transactions of a few thousand students, schools in turn (so the history interleaves them
// as real imports would). The events are the ones lib/server/school-data writes for the same rows
// (records from snapshots.ts), and the ChangeEvent triggers keep the feed clock and the counts
// exactly as they do for recordChanges (prisma/migrations/20261126140100_feed_clock_and_counts).
import { randomUUID } from "node:crypto";
import { pipeline } from "node:stream/promises";
import { Readable } from "node:stream";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { birthDate, personName, syntheticCpf } from "@/prisma/seed/names";

export interface TSeedSchool {
  id: string;
  periodId: string;
  periodCode: string;
  subjectIds: string[];
  /** The support teacher (AEE) assigned to every class in every subject: the longest user_id history. */
  supportTeacherId: string;
  /** Students written so far. */
  students: number;
  classes: number;
}

const CLASS_SIZE = 30;

/** One COPY text-format field: \N for null, backslash, tab and newlines escaped. */
const field = (value: string | null) => (value === null ? "\\N" : value.replace(/\\/g, "\\\\").replace(/\t/g, "\\t").replace(/\n/g, "\\n").replace(/\r/g, "\\r"));
const line = (values: (string | null)[]) => `${values.map(field).join("\t")}\n`;

class Batch {
  readonly rows: Record<string, string[]> = { Person: [], Profile: [], Class: [], ClassStudent: [], SubjectTeacher: [], ChangeEvent: [] };
  constructor(readonly now: string) {}

  person(serial: number, teacher: boolean): string {
    const id = randomUUID();
    const name = teacher ? `${personName(serial + 500)} (prof.)` : personName(serial);
    this.rows.Person!.push(line([id, name, teacher ? null : birthDate(serial, 10 + (serial % 8)), syntheticCpf(serial), teacher ? null : `1198${String(serial).slice(-7)}`, this.now]));
    return id;
  }

  profile(personId: string, institutionId: string, role: "aluno" | "professor"): string {
    const id = randomUUID();
    this.rows.Profile!.push(line([id, personId, institutionId, role, this.now]));
    this.event(institutionId, "usuario", id, { id, pessoaId: personId, instituicaoId: institutionId, perfil: role }, [id], null);
    return id;
  }

  event(institutionId: string, entity: string, recordId: string, record: object, profileIds: string[], periodCode: string | null): void {
    this.rows.ChangeEvent!.push(line([randomUUID(), institutionId, entity, "insert", recordId, JSON.stringify(record), `{${profileIds.join(",")}}`, periodCode]));
  }

  assignment(school: TSeedSchool, classId: string, subjectId: string, teacherId: string): void {
    const id = randomUUID();
    this.rows.SubjectTeacher!.push(line([id, classId, subjectId, teacherId]));
    this.event(school.id, "disciplinaProfessor", id, { id, turmaId: classId, disciplinaId: subjectId, professorId: teacherId, codigoPeriodo: school.periodCode }, [teacherId], school.periodCode);
  }
}

const COLUMNS: Record<string, string> = {
  Person: `"Person" (id, name, "birthDate", cpf, phone, "updatedAt")`,
  Profile: `"Profile" (id, "personId", "institutionId", role, "updatedAt")`,
  Class: `"Class" (id, "institutionId", "periodId", name, "updatedAt")`,
  ClassStudent: `"ClassStudent" (id, "classId", "studentId")`,
  SubjectTeacher: `"SubjectTeacher" (id, "classId", "subjectId", "teacherId")`,
  ChangeEvent: `"ChangeEvent" (id, "institutionId", entity, kind, "recordId", record, "profileIds", "periodCode")`,
};

/**
 * Adds `count` students to `school` in one transaction: new classes of 30 as needed (each with its
 * teacher, assigned in one subject, and the school's support teacher assigned in every subject),
 * each student a person, an `aluno` profile and an enrolment, every row with its event.
 */
export async function copyStudents(client: pg.PoolClient, school: TSeedSchool, count: number, serial: { next: number }): Promise<void> {
  const batch = new Batch(new Date().toISOString());
  let classId = "";
  for (let k = 0; k < count; k++) {
    const index = school.students + k;
    if (index % CLASS_SIZE === 0) {
      classId = randomUUID();
      const name = `Turma ${++school.classes}`;
      batch.rows.Class!.push(line([classId, school.id, school.periodId, name, batch.now]));
      batch.event(school.id, "turma", classId, { id: classId, instituicaoId: school.id, periodoId: school.periodId, codigoPeriodo: school.periodCode, nome: name, serie: null, turno: null }, [], school.periodCode);
      const teacher = batch.profile(batch.person(serial.next++, true), school.id, "professor");
      batch.assignment(school, classId, school.subjectIds[school.classes % school.subjectIds.length]!, teacher);
      for (const subjectId of school.subjectIds) batch.assignment(school, classId, subjectId, school.supportTeacherId);
    } else if (!classId) {
      // Continuing the last class of an earlier batch.
      classId = (await client.query<{ id: string }>(`SELECT id FROM "Class" WHERE "periodId" = $1 AND name = $2`, [school.periodId, `Turma ${school.classes}`])).rows[0]!.id;
    }
    const student = batch.profile(batch.person(serial.next++, false), school.id, "aluno");
    const enrolment = randomUUID();
    batch.rows.ClassStudent!.push(line([enrolment, classId, student]));
    batch.event(school.id, "turmaAluno", enrolment, { id: enrolment, turmaId: classId, alunoId: student, codigoPeriodo: school.periodCode }, [student], school.periodCode);
  }
  await client.query("BEGIN");
  try {
    for (const table of ["Person", "Profile", "Class", "ClassStudent", "SubjectTeacher", "ChangeEvent"]) {
      const rows = batch.rows[table]!;
      if (rows.length === 0) continue;
      await pipeline(Readable.from(chunks(rows)), client.query(copyFrom(`COPY ${COLUMNS[table]} FROM STDIN`)));
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK");
    throw error;
  }
  school.students += count;
}

/** Rows joined into chunks of about 256 KB, so the stream writes few, large pieces. */
function* chunks(rows: string[]): Generator<string> {
  let chunk = "";
  for (const row of rows) {
    chunk += row;
    if (chunk.length > 256 * 1024) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk) yield chunk;
}
