import type { GuardianStudent } from "@/lib/generated/prisma/client";
import { ZGuardianshipInputSchema } from "@/lib/validations/school-data";
import { inTransaction, recordChange, type WriteOptions } from "./record-change";
import { requireProfile } from "./require-profile";
import { responsavelAlunoChange } from "./changes";

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
    await recordChange(tx, responsavelAlunoChange("insert", row, student.institutionId));
    return row;
  });
}
