import type { GuardianStudent } from "@/lib/generated/prisma/client";
import { ZGuardianshipInputSchema } from "@/lib/validations/school-data";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { requireProfile } from "./require-profile";
import { responsavelAlunoRecord } from "./snapshots";

/** Guardian and student profiles belong to the same institution (the student's school). */
export async function linkGuardian(
  input: { guardianId: string; studentId: string; kinship?: string | null },
  options: WriteOptions = {},
): Promise<GuardianStudent> {
  const data = ZGuardianshipInputSchema.parse(input);
  return inTransaction(options, "Vínculo deste responsável com o aluno", async (tx) => {
    const student = await requireProfile(tx, data.studentId, "aluno");
    await requireProfile(tx, data.guardianId, "responsavel", student.institutionId);
    const row = await tx.guardianStudent.create({ data });
    await recordChange(tx, {
      institutionId: student.institutionId,
      entity: "responsavelAluno",
      kind: "insert",
      record: responsavelAlunoRecord(row),
      profileIds: [row.guardianId, row.studentId],
    });
    return row;
  });
}
