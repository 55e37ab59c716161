// One validator per import kind, picked from this table (validate-import.ts).
import type { TImportKind } from "@/lib/validations/management";
import type { TImportValidator } from "./context";
import { disciplinas } from "./disciplinas";
import { matriculas } from "./matriculas";
import { periodos } from "./periodos";
import { pessoas } from "./pessoas";
import { professores } from "./professores";
import { responsaveis } from "./responsaveis";
import { turmas } from "./turmas";

export const IMPORT_VALIDATORS: Readonly<Record<TImportKind, TImportValidator>> = { pessoas, periodos, disciplinas, turmas, matriculas, professores, responsaveis };
