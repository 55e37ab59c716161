import { AppError } from "@/lib/errors";
import { db } from "@/lib/server/db/database";
import { transaction } from "@/lib/server/db/transaction";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { assertEdtechMember } from "@/lib/server/developer/assert-edtech-member";
import { deleteProfile } from "@/lib/server/school-data/delete-profile";
import { importStudents } from "@/lib/server/school-data/import-students";
import { updateClass } from "@/lib/server/school-data/update-class";
import { updatePerson } from "@/lib/server/school-data/update-person";
import { sandboxPerson } from "./sandbox-people";

/** A sandbox keeps a school's size: past this many students a round deletes more than it adds. */
const MAX_STUDENTS = 2_000;
const NEW_PER_ROUND = 5;
const KEPT = 4;

export interface TGeneratedChanges {
  inserts: number;
  updates: number;
  deletes: number;
}

/**
 * "Generate changes": a burst of inserts, updates and deletes in the edtech's sandbox, through the
 * school-data services, so the Data API feed and the webhooks carry them as they would a school's.
 * Per school: new enrolled students, renamed students, a class renamed, students removed.
 */
export async function generateSandboxChanges(options: { actorPersonId: string; edtechId: string }): Promise<TGeneratedChanges> {
  await assertEdtechMember({ personId: options.actorPersonId, edtechId: options.edtechId });
  const sandbox = await db().sandbox.findUnique({ where: { edtechId: options.edtechId } });
  if (!sandbox) throw new AppError("not_found", "Crie a rede sandbox primeiro.");
  const { changeRounds: round } = await db().sandbox.update({ where: { edtechId: sandbox.edtechId }, data: { changeRounds: { increment: 1 } } });
  const schools = await db().institution.findMany({ where: { parentId: sandbox.institutionId }, orderBy: { name: "asc" }, select: { id: true } });
  const tag = `r${round}${sandbox.edtechId.slice(0, 4)}`;
  const counts: TGeneratedChanges = { inserts: 0, updates: 0, deletes: 0 };
  let n = 0;
  for (const school of schools) {
    const classes = await db().class.findMany({ where: { institutionId: school.id }, orderBy: { name: "asc" } });
    const students = await db().profile.findMany({ where: { institutionId: school.id, role: "aluno" }, orderBy: { createdAt: "asc" }, select: { id: true, personId: true } });
    const target = classes[round % Math.max(classes.length, 1)];
    if (target && students.length < MAX_STUDENTS) {
      await importStudents({ institutionId: school.id, students: Array.from({ length: NEW_PER_ROUND }, () => ({ person: sandboxPerson("aluno", ++n, tag), classId: target.id })) });
      counts.inserts += 2 * NEW_PER_ROUND; // usuario and turmaAluno
    }
    for (const student of students.slice(-6, -3)) {
      await updatePerson({ personId: student.personId, changes: { name: `Aluno Fictício ${round}-${++n} (renomeado)` } });
      counts.updates++;
    }
    if (target) {
      await updateClass({ classId: target.id, changes: { grade: `rodada ${round}` } });
      counts.updates++;
    }
    // The first students stay: the developer area prints their sign-in.
    for (const student of students.slice(KEPT, KEPT + (students.length >= MAX_STUDENTS ? NEW_PER_ROUND + 2 : 2))) {
      await deleteProfile({ profileId: student.id });
      counts.deletes++;
    }
  }
  await transaction((tx) =>
    recordAudit(tx, {
      actorPersonId: options.actorPersonId,
      action: "sandbox.generate_changes",
      targetType: "institution",
      targetId: sandbox.institutionId,
      edtechId: sandbox.edtechId,
      institutionId: sandbox.institutionId,
      details: { ...counts, round },
    }),
  );
  return counts;
}
