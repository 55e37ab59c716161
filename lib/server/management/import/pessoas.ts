import { db } from "@/lib/server/db/database";
import { IMPORT_ROW_SCHEMAS } from "@/lib/validations/management";
import { classKey, findInChunks, importValidator, type TPlanItems } from "./context";

/** People: CPF and e-mail new to the hub and once in the file; the class, when given, exists. */
export const pessoas = importValidator(IMPORT_ROW_SCHEMAS.pessoas, async (rows, { fail, once, loadClasses }) => {
  const existing = {
    cpf: await findInChunks(
      rows.flatMap((r) => (r.data.cpf ? [r.data.cpf] : [])),
      async (part) => (await db().person.findMany({ where: { cpf: { in: part } }, select: { cpf: true } })).flatMap((p) => (p.cpf ? [p.cpf] : [])),
    ),
    email: await findInChunks(
      rows.flatMap((r) => (r.data.email ? [r.data.email] : [])),
      async (part) => (await db().person.findMany({ where: { email: { in: part } }, select: { email: true } })).flatMap((p) => (p.email ? [p.email] : [])),
    ),
  };
  const classes = rows.some((r) => r.data.turma) ? await loadClasses() : new Map<string, string>();
  const items: TPlanItems<"pessoas"> = [];
  for (const { line, data } of rows) {
    let ok = true;
    if (data.cpf) {
      ok = once(`cpf:${data.cpf}`, line, (first) => `CPF repetido no arquivo (também na linha ${first})`) && ok;
      if (existing.cpf.has(data.cpf)) {
        ok = false;
        fail(line, "CPF já cadastrado no Hub");
      }
    }
    if (data.email) {
      ok = once(`email:${data.email}`, line, (first) => `E-mail repetido no arquivo (também na linha ${first})`) && ok;
      if (existing.email.has(data.email)) {
        ok = false;
        fail(line, "E-mail já cadastrado no Hub");
      }
    }
    const classId = data.turma && data.periodo ? classes.get(classKey(data.periodo, data.turma)) : undefined;
    if (data.turma && !classId) {
      ok = false;
      fail(line, `Turma "${data.turma}" não encontrada no período ${data.periodo}`);
    }
    if (ok) {
      items.push({
        line,
        role: data.perfil,
        classId,
        person: { name: data.nome, cpf: data.cpf, email: data.email, phone: data.telefone, birthDate: data.nascimento },
      });
    }
  }
  return { kind: "pessoas", items };
});
