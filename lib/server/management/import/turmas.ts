import { db } from "@/lib/server/db/database";
import { IMPORT_ROW_SCHEMAS } from "@/lib/validations/management";
import { classKey, importValidator, type TPlanItems } from "./context";

/** Classes: the period exists; each class (period and name) once in the file and new. */
export const turmas = importValidator(IMPORT_ROW_SCHEMAS.turmas, async (rows, { institutionId, fail, once, loadClasses }) => {
  const periods = new Map((await db().period.findMany({ where: { institutionId }, select: { id: true, code: true } })).map((p) => [p.code, p.id]));
  const classes = await loadClasses();
  const items: TPlanItems<"turmas"> = [];
  for (const { line, data } of rows) {
    const periodId = periods.get(data.periodo);
    if (!periodId) fail(line, `Período ${data.periodo} não cadastrado nesta escola`);
    const fresh = once(classKey(data.periodo, data.nome), line, (first) => `Turma repetida no arquivo (também na linha ${first})`);
    if (fresh && classes.has(classKey(data.periodo, data.nome))) fail(line, `A turma "${data.nome}" já existe no período ${data.periodo}`);
    else if (fresh && periodId) items.push({ line, periodId, name: data.nome, grade: data.serie, shift: data.turno });
  }
  return { kind: "turmas", items };
});
