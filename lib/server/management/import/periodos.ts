import { db } from "@/lib/server/db/database";
import { IMPORT_ROW_SCHEMAS } from "@/lib/validations/management";
import { importValidator, type TPlanItems } from "./context";

/** Periods: each code once in the file and new at the school. */
export const periodos = importValidator(IMPORT_ROW_SCHEMAS.periodos, async (rows, { institutionId, fail, once }) => {
  const existing = new Set((await db().period.findMany({ where: { institutionId }, select: { code: true } })).map((p) => p.code));
  const items: TPlanItems<"periodos"> = [];
  for (const { line, data } of rows) {
    if (!once(data.codigo, line, (first) => `Período ${data.codigo} repetido no arquivo (também na linha ${first})`)) continue;
    if (existing.has(data.codigo)) {
      fail(line, `O período ${data.codigo} já existe nesta escola`);
      continue;
    }
    items.push({ line, code: data.codigo, name: data.nome, startsOn: data.inicio, endsOn: data.fim });
  }
  return { kind: "periodos", items };
});
