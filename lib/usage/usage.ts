// The usage numbers (issue #19) as the manager page, its CSV and /manager/v1/usage share them:
// one row per kind × day × institution × tool × profile kind, counts only.
import type { Role } from "@/lib/generated/prisma/enums";
import type { TSignInMethod } from "@/lib/server/usage/log-sign-in";

export type TUsageKind = "launch" | "sign_in";

export interface TUsageRow {
  kind: TUsageKind;
  /** AAAA-MM-DD in the hub's time zone. */
  day: string;
  institutionId: string;
  institutionName: string;
  /** Launches only. */
  toolId: string | null;
  toolName: string | null;
  /** The profile's kind; null for a launch whose profile was deleted since. */
  role: Role | null;
  /** Sign-ins only: how the person signed in. */
  method: TSignInMethod | null;
  count: number;
}

/** Totals of `rows` per value of `key`, largest first (ties by label). */
export function totalsBy(rows: readonly TUsageRow[], key: (row: TUsageRow) => string): { label: string; count: number }[] {
  const totals = new Map<string, number>();
  for (const row of rows) totals.set(key(row), (totals.get(key(row)) ?? 0) + row.count);
  return [...totals].map(([label, count]) => ({ label, count })).sort((a, b) => b.count - a.count || a.label.localeCompare(b.label, "pt-BR"));
}

/** Every day from `from` to `to` (AAAA-MM-DD, inclusive), for a per-day chart without gaps. */
export function daysBetween(from: string, to: string): string[] {
  const days: string[] = [];
  for (let d = new Date(`${from}T00:00:00Z`); d <= new Date(`${to}T00:00:00Z`) && days.length < 400; d.setUTCDate(d.getUTCDate() + 1)) days.push(d.toISOString().slice(0, 10));
  return days;
}

const CSV_HEADER = ["tipo", "dia", "instituicao_id", "instituicao", "ferramenta_id", "ferramenta", "perfil", "quantidade", "forma_de_entrada"];

/** How each sign-in method reads on the usage page. */
export const SIGN_IN_METHOD_LABEL: Record<TSignInMethod, string> = {
  password: "Senha",
  card: "Crachá",
  google: "Google",
  microsoft: "Microsoft",
  govbr: "gov.br",
  oidc: "Outro provedor (OpenID Connect)",
};

/** RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled; a leading =+-@ is prefixed with ' (spreadsheet formulas). */
function csvCell(value: string | number | null): string {
  let text = value === null ? "" : String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The rows as CSV (UTF-8, CRLF), one line per row, the header first. */
export function usageCsv(rows: readonly TUsageRow[]): string {
  const lines = [CSV_HEADER, ...rows.map((r) => [r.kind === "launch" ? "lancamento" : "entrada", r.day, r.institutionId, r.institutionName, r.toolId, r.toolName, r.role ?? "desconhecido", r.count, r.method])];
  return lines.map((line) => line.map(csvCell).join(",")).join("\r\n") + "\r\n";
}
