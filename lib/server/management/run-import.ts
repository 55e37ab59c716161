import { transaction } from "@/lib/server/db/transaction";
import { assignTeacher } from "@/lib/server/school-data/assign-teacher";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { createSubject } from "@/lib/server/school-data/create-subject";
import { enrollStudent } from "@/lib/server/school-data/enroll-student";
import { importProfiles } from "@/lib/server/school-data/import-profiles";
import { importStudents } from "@/lib/server/school-data/import-students";
import { linkGuardian } from "@/lib/server/school-data/link-guardian";
import type { Tx } from "@/lib/server/school-data/record-change";
import type { TImportKind } from "@/lib/validations/management";
import type { TManagerScope } from "./resolve-manager-scope";
import type { TImportPlan } from "./import/context";
import { validateImport, type TImportProgress, type TRowError } from "./validate-import";

export type TImportResult =
  | { ok: true; total: number; imported: number }
  | { ok: false; total: number; fileErrors: string[]; rowErrors: TRowError[] };

// Batched writers take this many rows per statement group; one-by-one writers report progress
// this often. Both keep the progress bar moving on a 10,000-row file.
const BATCH = 1000;
const STEP = 100;
// One transaction holds the whole file (all or nothing): give it room on the embedded engine.
const LIMITS = { timeout: 10 * 60_000, maxWait: 60_000 } as const;

/**
 * Imports a CSV file into an institution the manager reaches: validates the whole file first
 * (validateImport) and, only if every row is good, writes every row through the school-data
 * services in ONE transaction, so a failure at row 9,999 leaves nothing behind. Progress is
 * reported per chunk.
 */
export async function runImport(options: {
  scope: TManagerScope;
  institutionId: string;
  kind: TImportKind;
  csv: string;
  /** Only validate (the "check the file" step of the page). */
  dryRun?: boolean;
  onProgress?: (progress: TImportProgress) => void;
}): Promise<TImportResult> {
  const validation = await validateImport(options);
  if (!validation.ok) return validation;
  const { plan, total } = validation;
  if (options.dryRun) return { ok: true, total, imported: 0 };
  const report = (done: number) => options.onProgress?.({ phase: "importando", done, total });
  report(0);
  await transaction((tx) => write(tx, options.institutionId, plan, report), LIMITS);
  return { ok: true, total, imported: plan.items.length };
}

async function write(tx: Tx, institutionId: string, plan: TImportPlan, report: (done: number) => void): Promise<void> {
  const options = { tx };
  const oneByOne = async <T>(items: T[], fn: (item: T) => Promise<unknown>) => {
    for (const [i, item] of items.entries()) {
      await fn(item);
      if ((i + 1) % STEP === 0 || i + 1 === items.length) report(i + 1);
    }
  };
  switch (plan.kind) {
    case "pessoas": {
      // Students with a class go through importStudents (person + profile + enrollment), everyone
      // else through importProfiles: both batched, both emitting the one-by-one services' events.
      const students = plan.items.flatMap((i) => (i.role === "aluno" && i.classId ? [{ person: i.person, classId: i.classId }] : []));
      const others = plan.items.flatMap((i) => (i.role === "aluno" && i.classId ? [] : [{ person: i.person, role: i.role }]));
      let done = 0;
      for (let i = 0; i < students.length; i += BATCH) {
        const batch = students.slice(i, i + BATCH);
        await importStudents({ institutionId, students: batch }, options);
        report((done += batch.length));
      }
      for (let i = 0; i < others.length; i += BATCH) {
        const batch = others.slice(i, i + BATCH);
        await importProfiles({ institutionId, people: batch }, options);
        report((done += batch.length));
      }
      return;
    }
    case "periodos":
      return oneByOne(plan.items, (p) => createPeriod({ institutionId, code: p.code, name: p.name, startsOn: p.startsOn, endsOn: p.endsOn }, options));
    case "disciplinas":
      return oneByOne(plan.items, (s) => createSubject({ institutionId, name: s.name, code: s.code ?? null }, options));
    case "turmas":
      return oneByOne(plan.items, (c) => createClass({ periodId: c.periodId, name: c.name, grade: c.grade ?? null, shift: c.shift ?? null }, options));
    case "matriculas":
      return oneByOne(plan.items, (e) => enrollStudent({ classId: e.classId, studentId: e.studentId }, options));
    case "professores":
      return oneByOne(plan.items, (a) => assignTeacher({ classId: a.classId, subjectId: a.subjectId, teacherId: a.teacherId }, options));
    case "responsaveis":
      return oneByOne(plan.items, (g) => linkGuardian({ guardianId: g.guardianId, studentId: g.studentId, kinship: g.kinship ?? null }, options));
  }
}
