import { db } from "@/lib/server/db/database";
import { IMPORT_ROW_SCHEMAS } from "@/lib/validations/management";
import { fold, importValidator, type TPlanItems } from "./context";

/** Subjects: each name (case and accents folded) once in the file and new at the school. */
export const disciplinas = importValidator(IMPORT_ROW_SCHEMAS.disciplinas, async (rows, { institutionId, fail, once }) => {
  const existing = new Set((await db().subject.findMany({ where: { institutionId }, select: { name: true } })).map((s) => fold(s.name)));
  const items: TPlanItems<"disciplinas"> = [];
  for (const { line, data } of rows) {
    if (!once(fold(data.nome), line, (first) => `Disciplina repetida no arquivo (também na linha ${first})`)) continue;
    if (existing.has(fold(data.nome))) {
      fail(line, `A disciplina "${data.nome}" já existe nesta escola`);
      continue;
    }
    items.push({ line, name: data.nome, code: data.codigo });
  }
  return { kind: "disciplinas", items };
});
