import { db } from "@/lib/server/db/database";
import { IMPORT_ROW_SCHEMAS } from "@/lib/validations/management";
import { classKey, fold, importValidator, type TPlanItems } from "./context";

/** Teaching assignments: class, subject and teacher exist; each triple once in the file and new. */
export const professores = importValidator(IMPORT_ROW_SCHEMAS.professores, async (rows, { institutionId, fail, once, loadClasses, resolveProfiles, profileOf }) => {
  const classes = await loadClasses();
  const subjects = new Map((await db().subject.findMany({ where: { institutionId }, select: { id: true, name: true } })).map((s) => [fold(s.name), s.id]));
  const teachers = await resolveProfiles("professor", rows.map((r) => r.data.professor));
  const assigned = new Set(
    (await db().subjectTeacher.findMany({ where: { class: { institutionId } }, select: { classId: true, subjectId: true, teacherId: true } })).map(
      (a) => `${a.classId}\0${a.subjectId}\0${a.teacherId}`,
    ),
  );
  const items: TPlanItems<"professores"> = [];
  for (const { line, data } of rows) {
    const classId = classes.get(classKey(data.periodo, data.turma));
    if (!classId) fail(line, `Turma "${data.turma}" não encontrada no período ${data.periodo}`);
    const subjectId = subjects.get(fold(data.disciplina));
    if (!subjectId) fail(line, `Disciplina "${data.disciplina}" não cadastrada nesta escola`);
    const teacherId = profileOf(teachers, data.professor, line, "Professor(a)");
    if (!classId || !subjectId || !teacherId) continue;
    const key = `${classId}\0${subjectId}\0${teacherId}`;
    if (!once(key, line, (first) => `Atribuição repetida no arquivo (também na linha ${first})`)) continue;
    if (assigned.has(key)) fail(line, "O professor já leciona esta disciplina nesta turma");
    else items.push({ line, classId, subjectId, teacherId });
  }
  return { kind: "professores", items };
});
