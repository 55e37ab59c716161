import { db } from "@/lib/server/db/database";
import { IMPORT_ROW_SCHEMAS } from "@/lib/validations/management";
import { findInChunks, importValidator, type TPlanItems } from "./context";

/** Guardians: guardian and student exist; each pair once in the file and not yet linked. */
export const responsaveis = importValidator(IMPORT_ROW_SCHEMAS.responsaveis, async (rows, { fail, once, resolveProfiles, profileOf }) => {
  const guardians = await resolveProfiles("responsavel", rows.map((r) => r.data.responsavel));
  const students = await resolveProfiles("aluno", rows.map((r) => r.data.aluno));
  const linked = await findInChunks(students.values(), async (part) =>
    (await db().guardianStudent.findMany({ where: { studentId: { in: part } }, select: { guardianId: true, studentId: true } })).map((g) => `${g.guardianId}\0${g.studentId}`),
  );
  const items: TPlanItems<"responsaveis"> = [];
  for (const { line, data } of rows) {
    const guardianId = profileOf(guardians, data.responsavel, line, "Responsável");
    const studentId = profileOf(students, data.aluno, line, "Aluno(a)");
    if (!guardianId || !studentId) continue;
    if (!once(`${guardianId}\0${studentId}`, line, (first) => `Vínculo repetido no arquivo (também na linha ${first})`)) continue;
    if (linked.has(`${guardianId}\0${studentId}`)) fail(line, "Este responsável já está vinculado ao aluno");
    else items.push({ line, guardianId, studentId, kinship: data.parentesco });
  }
  return { kind: "responsaveis", items };
});
