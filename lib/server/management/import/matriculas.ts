import { db } from "@/lib/server/db/database";
import { IMPORT_ROW_SCHEMAS } from "@/lib/validations/management";
import { classKey, findInChunks, importValidator, type TPlanItems } from "./context";

/** Enrolments: the class and the student exist; each pair once in the file and new. */
export const matriculas = importValidator(IMPORT_ROW_SCHEMAS.matriculas, async (rows, { fail, once, loadClasses, resolveProfiles, profileOf }) => {
  const classes = await loadClasses();
  const students = await resolveProfiles("aluno", rows.map((r) => r.data.aluno));
  const enrolled = await findInChunks(students.values(), async (part) =>
    (await db().classStudent.findMany({ where: { studentId: { in: part } }, select: { classId: true, studentId: true } })).map((e) => `${e.classId}\0${e.studentId}`),
  );
  const items: TPlanItems<"matriculas"> = [];
  for (const { line, data } of rows) {
    const classId = classes.get(classKey(data.periodo, data.turma));
    if (!classId) fail(line, `Turma "${data.turma}" não encontrada no período ${data.periodo}`);
    const studentId = profileOf(students, data.aluno, line, "Aluno(a)");
    if (!classId || !studentId) continue;
    if (!once(`${classId}\0${studentId}`, line, (first) => `Matrícula repetida no arquivo (também na linha ${first})`)) continue;
    if (enrolled.has(`${classId}\0${studentId}`)) fail(line, "O aluno já está matriculado nesta turma");
    else items.push({ line, classId, studentId });
  }
  return { kind: "matriculas", items };
});
