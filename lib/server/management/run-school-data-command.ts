import { AppError } from "@/lib/errors";
import { assignTeacher } from "@/lib/server/school-data/assign-teacher";
import { createClass } from "@/lib/server/school-data/create-class";
import { createPeriod } from "@/lib/server/school-data/create-period";
import { createPerson } from "@/lib/server/school-data/create-person";
import { createProfile } from "@/lib/server/school-data/create-profile";
import { createSubject } from "@/lib/server/school-data/create-subject";
import { deleteClass } from "@/lib/server/school-data/delete-class";
import { deletePeriod } from "@/lib/server/school-data/delete-period";
import { deletePerson } from "@/lib/server/school-data/delete-person";
import { deleteProfile } from "@/lib/server/school-data/delete-profile";
import { deleteSubject } from "@/lib/server/school-data/delete-subject";
import { enrollStudent } from "@/lib/server/school-data/enroll-student";
import { linkGuardian } from "@/lib/server/school-data/link-guardian";
import type { Tx } from "@/lib/server/school-data/record-change";
import { unassignTeacher } from "@/lib/server/school-data/unassign-teacher";
import { unenrollStudent } from "@/lib/server/school-data/unenroll-student";
import { unlinkGuardian } from "@/lib/server/school-data/unlink-guardian";
import { updateClass } from "@/lib/server/school-data/update-class";
import { updatePeriod } from "@/lib/server/school-data/update-period";
import { updatePerson } from "@/lib/server/school-data/update-person";
import { updateSubject } from "@/lib/server/school-data/update-subject";
import { ZSchoolDataCommandSchema, type TSchoolDataCommand } from "@/lib/validations/management";
import type { TManagerScope } from "./resolve-manager-scope";
import { transaction } from "@/lib/server/db/transaction";

/** What a manager is told after each command. */
export const COMMAND_DONE: Record<TSchoolDataCommand["type"], string> = {
  createPeriod: "Período criado.",
  updatePeriod: "Período atualizado.",
  deletePeriod: "Período excluído.",
  createSubject: "Disciplina criada.",
  updateSubject: "Disciplina atualizada.",
  deleteSubject: "Disciplina excluída.",
  createClass: "Turma criada.",
  updateClass: "Turma atualizada.",
  deleteClass: "Turma excluída.",
  createPerson: "Pessoa cadastrada.",
  updatePerson: "Dados atualizados.",
  addProfile: "Perfil adicionado.",
  deleteProfile: "Perfil removido.",
  enrollStudent: "Aluno matriculado.",
  unenrollStudent: "Matrícula removida.",
  assignTeacher: "Professor atribuído.",
  unassignTeacher: "Atribuição removida.",
  linkGuardian: "Responsável vinculado.",
  unlinkGuardian: "Vínculo removido.",
};

export interface TCommandResult {
  /** The row created, when the command creates one. */
  id?: string;
}

/**
 * The one way the manager area writes school data: checks that everything the command touches
 * lies within the manager's reach, then calls the school-data service (so every change has its
 * Data API event), all in one transaction. Rows outside the reach are reported as not found,
 * exactly like rows that do not exist.
 */
export async function runSchoolDataCommand({ scope, command: input }: { scope: TManagerScope; command: TSchoolDataCommand }): Promise<TCommandResult> {
  const command = ZSchoolDataCommandSchema.parse(input);
  const reach = new Set(scope.institutions.map((i) => i.id));
  const inReach = (institutionId: string | undefined | null, notFound: string) => {
    if (!institutionId || !reach.has(institutionId)) throw new AppError("not_found", notFound);
  };

  return transaction(async (tx: Tx): Promise<TCommandResult> => {
    const options = { tx };
    const periodOf = async (periodId: string) => (await tx.period.findUnique({ where: { id: periodId }, select: { institutionId: true } }))?.institutionId;
    const subjectOf = async (subjectId: string) => (await tx.subject.findUnique({ where: { id: subjectId }, select: { institutionId: true } }))?.institutionId;
    const classOf = async (classId: string) => (await tx.class.findUnique({ where: { id: classId }, select: { institutionId: true } }))?.institutionId;
    const profileOf = async (profileId: string) => (await tx.profile.findUnique({ where: { id: profileId }, select: { institutionId: true } }))?.institutionId;

    switch (command.type) {
      case "createPeriod":
        inReach(command.input.institutionId, "Instituição não encontrada.");
        return { id: (await createPeriod(command.input, options)).id };
      case "updatePeriod":
        inReach(await periodOf(command.periodId), "Período não encontrado.");
        return { id: (await updatePeriod({ periodId: command.periodId, changes: command.changes }, options)).id };
      case "deletePeriod":
        inReach(await periodOf(command.periodId), "Período não encontrado.");
        await deletePeriod({ periodId: command.periodId }, options);
        return {};
      case "createSubject":
        inReach(command.input.institutionId, "Instituição não encontrada.");
        return { id: (await createSubject(command.input, options)).id };
      case "updateSubject":
        inReach(await subjectOf(command.subjectId), "Disciplina não encontrada.");
        return { id: (await updateSubject({ subjectId: command.subjectId, changes: command.changes }, options)).id };
      case "deleteSubject":
        inReach(await subjectOf(command.subjectId), "Disciplina não encontrada.");
        await deleteSubject({ subjectId: command.subjectId }, options);
        return {};
      case "createClass":
        inReach(await periodOf(command.input.periodId), "Período não encontrado.");
        return { id: (await createClass(command.input, options)).id };
      case "updateClass":
        inReach(await classOf(command.classId), "Turma não encontrada.");
        return { id: (await updateClass({ classId: command.classId, changes: command.changes }, options)).id };
      case "deleteClass":
        inReach(await classOf(command.classId), "Turma não encontrada.");
        await deleteClass({ classId: command.classId }, options);
        return {};
      case "createPerson": {
        inReach(command.institutionId, "Instituição não encontrada.");
        const person = await createPerson(command.person, options);
        return { id: (await createProfile({ personId: person.id, institutionId: command.institutionId, role: command.role }, options)).id };
      }
      case "updatePerson": {
        // A person's attributes reach every institution they have a profile in: only a manager
        // who reaches all of them may change them.
        const profiles = await tx.profile.findMany({ where: { personId: command.personId }, select: { institutionId: true } });
        if (!profiles.some((p) => reach.has(p.institutionId))) throw new AppError("not_found", "Pessoa não encontrada.");
        if (!profiles.every((p) => reach.has(p.institutionId))) {
          throw new AppError("forbidden", "Esta pessoa também tem perfil em uma instituição fora da sua gestão; peça a alteração à gestão da rede.");
        }
        return { id: (await updatePerson({ personId: command.personId, changes: command.changes }, options)).id };
      }
      case "addProfile": {
        inReach(command.institutionId, "Instituição não encontrada.");
        const profiles = await tx.profile.findMany({ where: { personId: command.personId }, select: { institutionId: true } });
        if (!profiles.some((p) => reach.has(p.institutionId))) throw new AppError("not_found", "Pessoa não encontrada.");
        return { id: (await createProfile({ personId: command.personId, institutionId: command.institutionId, role: command.role }, options)).id };
      }
      case "deleteProfile": {
        const profile = await tx.profile.findUnique({ where: { id: command.profileId }, select: { institutionId: true, personId: true } });
        inReach(profile?.institutionId, "Perfil não encontrado.");
        if (command.profileId === scope.profileId) throw new AppError("conflict", "Você não pode remover o próprio perfil de gestor.");
        await deleteProfile({ profileId: command.profileId }, options);
        // A person left with no profile and no edtech membership has nothing to sign in to: keeping
        // their personal data would serve no purpose (LGPD, necessity).
        const remaining = await tx.person.findUnique({
          where: { id: profile!.personId },
          select: { _count: { select: { profiles: true, edtechMembers: true } } },
        });
        if (remaining && remaining._count.profiles === 0 && remaining._count.edtechMembers === 0) {
          await deletePerson({ personId: profile!.personId }, options);
        }
        return {};
      }
      case "enrollStudent":
        inReach(await classOf(command.classId), "Turma não encontrada.");
        inReach(await profileOf(command.studentId), "Aluno não encontrado.");
        return { id: (await enrollStudent({ classId: command.classId, studentId: command.studentId }, options)).id };
      case "unenrollStudent": {
        const row = await tx.classStudent.findUnique({ where: { id: command.enrollmentId }, select: { class: { select: { institutionId: true } } } });
        inReach(row?.class.institutionId, "Matrícula não encontrada.");
        await unenrollStudent({ enrollmentId: command.enrollmentId }, options);
        return {};
      }
      case "assignTeacher":
        inReach(await classOf(command.classId), "Turma não encontrada.");
        inReach(await subjectOf(command.subjectId), "Disciplina não encontrada.");
        inReach(await profileOf(command.teacherId), "Professor não encontrado.");
        return { id: (await assignTeacher({ classId: command.classId, subjectId: command.subjectId, teacherId: command.teacherId }, options)).id };
      case "unassignTeacher": {
        const row = await tx.subjectTeacher.findUnique({ where: { id: command.assignmentId }, select: { class: { select: { institutionId: true } } } });
        inReach(row?.class.institutionId, "Atribuição não encontrada.");
        await unassignTeacher({ assignmentId: command.assignmentId }, options);
        return {};
      }
      case "linkGuardian":
        inReach(await profileOf(command.studentId), "Aluno não encontrado.");
        inReach(await profileOf(command.guardianId), "Responsável não encontrado.");
        return { id: (await linkGuardian({ guardianId: command.guardianId, studentId: command.studentId, kinship: command.kinship }, options)).id };
      case "unlinkGuardian": {
        const row = await tx.guardianStudent.findUnique({ where: { id: command.guardianshipId }, select: { student: { select: { institutionId: true } } } });
        inReach(row?.student.institutionId, "Vínculo não encontrado.");
        await unlinkGuardian({ guardianshipId: command.guardianshipId }, options);
        return {};
      }
    }
  });
}
