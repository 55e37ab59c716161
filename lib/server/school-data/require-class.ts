import { AppError } from "@/lib/errors";
import type { Tx } from "./record-change";

/** Loads a class with its period (the events about it carry the period's code), or not_found. */
export async function requireClass(tx: Tx, classId: string) {
  const cls = await tx.class.findUnique({ where: { id: classId }, include: { period: true } });
  if (!cls) throw new AppError("not_found", "Turma não encontrada.");
  return cls;
}
