// What every import validator shares: the plan it returns, how it reports a bad row, and the
// look-ups several kinds need (classes by period and name, profiles by CPF or e-mail).
import type { z } from "zod";
import { db } from "@/lib/server/db/database";
import type { Role } from "@/lib/generated/prisma/client";

export type Line = { line: number };

/** What an import will write, every reference already resolved to an id of this institution. */
export type TImportPlan =
  | { kind: "pessoas"; items: (Line & { role: Role; classId?: string; person: { name: string; cpf?: string; email?: string; phone?: string; birthDate?: string } })[] }
  | { kind: "periodos"; items: (Line & { code: string; name: string; startsOn: string; endsOn: string })[] }
  | { kind: "disciplinas"; items: (Line & { name: string; code?: string })[] }
  | { kind: "turmas"; items: (Line & { periodId: string; name: string; grade?: string; shift?: "manha" | "tarde" | "noite" | "integral" })[] }
  | { kind: "matriculas"; items: (Line & { classId: string; studentId: string })[] }
  | { kind: "professores"; items: (Line & { classId: string; subjectId: string; teacherId: string })[] }
  | { kind: "responsaveis"; items: (Line & { guardianId: string; studentId: string; kinship?: string })[] };

export type TPlanItems<K extends TImportPlan["kind"]> = Extract<TImportPlan, { kind: K }>["items"];

export const CHUNK = 1000;
export const chunks = <T>(list: T[], size = CHUNK): T[][] => Array.from({ length: Math.ceil(list.length / size) }, (_, i) => list.slice(i * size, (i + 1) * size));
/** What a look-up finds for many values, asked CHUNK values a query (the distinct values only). */
export async function findInChunks(values: Iterable<string>, load: (part: string[]) => Promise<string[]>): Promise<Set<string>> {
  const found = new Set<string>();
  for (const part of chunks([...new Set(values)])) for (const key of await load(part)) found.add(key);
  return found;
}

export const fold = (s: string) => s.normalize("NFC").trim().toLowerCase();
export const classKey = (code: string, name: string) => `${code}\0${fold(name)}`;

type TPersonRef = { cpf: string } | { email: string };
const refKey = (r: TPersonRef) => ("cpf" in r ? `cpf:${r.cpf}` : `email:${r.email}`);
const refLabel = (r: TPersonRef) => ("cpf" in r ? `CPF ${r.cpf}` : r.email);

export interface TImportContext {
  institutionId: string;
  fail(line: number, message: string): void;
  /** False (and the row failed with `message`) when `key` was already seen in the file. */
  once(key: string, line: number, message: (first: number) => string): boolean;
  /** The institution's classes: classKey(period code, name) → id. */
  loadClasses(): Promise<Map<string, string>>;
  /** cpf/e-mail → profile id, for profiles of one role at this institution. */
  resolveProfiles(role: Role, refs: TPersonRef[]): Promise<Map<string, string>>;
  /** The profile a reference names, or undefined (and the row failed) when there is none. */
  profileOf(found: Map<string, string>, ref: TPersonRef, line: number, who: string): string | undefined;
}

export function createImportContext(institutionId: string, fail: (line: number, message: string) => void): TImportContext {
  const seen = new Map<string, number>();
  return {
    institutionId,
    fail,
    once(key, line, message) {
      const first = seen.get(key);
      if (first !== undefined) {
        fail(line, message(first));
        return false;
      }
      seen.set(key, line);
      return true;
    },
    async loadClasses() {
      const classes = await db().class.findMany({ where: { institutionId }, select: { id: true, name: true, period: { select: { code: true } } } });
      return new Map(classes.map((c) => [classKey(c.period.code, c.name), c.id]));
    },
    async resolveProfiles(role, refs) {
      const cpfs = [...new Set(refs.flatMap((r) => ("cpf" in r ? [r.cpf] : [])))];
      const emails = [...new Set(refs.flatMap((r) => ("email" in r ? [r.email] : [])))];
      const found = new Map<string, string>();
      for (const part of [...chunks(cpfs).map((c) => ({ cpf: { in: c } })), ...chunks(emails).map((e) => ({ email: { in: e } }))]) {
        const profiles = await db().profile.findMany({ where: { institutionId, role, person: part }, select: { id: true, person: { select: { cpf: true, email: true } } } });
        for (const p of profiles) {
          if (p.person.cpf) found.set(`cpf:${p.person.cpf}`, p.id);
          if (p.person.email) found.set(`email:${p.person.email}`, p.id);
        }
      }
      return found;
    },
    profileOf(found, ref, line, who) {
      const id = found.get(refKey(ref));
      if (!id) fail(line, `${who} não encontrado(a) nesta escola: ${refLabel(ref)}`);
      return id;
    },
  };
}

/** One kind's validator for one file: fed each row's cells, then asked for the plan. */
export interface TKindValidator {
  row(line: number, cells: Record<string, string>): void;
  /** Duplicates inside the file and every rule that needs the database. */
  plan(): Promise<TImportPlan>;
}

export type TImportValidator = (context: TImportContext) => TKindValidator;

/** A kind's validator: its row schema (the cells' rules) and its check against the database. */
export function importValidator<S extends z.ZodType>(
  schema: S,
  plan: (rows: (Line & { data: z.output<S> })[], context: TImportContext) => Promise<TImportPlan>,
): TImportValidator {
  return (context) => {
    const rows: (Line & { data: z.output<S> })[] = [];
    return {
      row(line, cells) {
        const result = schema.safeParse(cells);
        if (result.success) rows.push({ line, data: result.data });
        else for (const issue of result.error.issues) context.fail(line, issue.message);
      },
      plan: () => plan(rows, context),
    };
  };
}
