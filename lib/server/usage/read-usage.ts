import { fromZodError } from "@/lib/errors";
import { authorizeDataAccess } from "@/lib/server/data-api/authorize-data-access";
import { dayRange } from "@/lib/server/management/day-range";
import { queryInput } from "@/lib/validations/data-api";
import { usagePeriodSchema } from "@/lib/validations/usage";
import { countUsage } from "./count-usage";
import { hubToday } from "./get-institution-usage";

export interface TUsageAnswer {
  instituicao: { id: string; nome: string };
  de: string;
  ate: string;
  uso: { tipo: "lancamento" | "entrada"; dia: string; instituicaoId: string; instituicao: string; ferramentaId: string | null; ferramenta: string | null; perfil: string; quantidade: number; formaDeEntrada: string | null }[];
}

/**
 * GET /manager/v1/usage/{org_id}?from=AAAA-MM-DD&to=AAAA-MM-DD: the usage counts of the
 * institution and its subtree (docs/data-api.md, "Uso"), authorized as the Data API is (same key,
 * same errors). Launches are of the key's edtech's own tools; sign-ins are all the institution's.
 */
export async function readUsage(options: { apiKey: string | null | undefined; orgId: string | undefined; searchParams: URLSearchParams }): Promise<TUsageAnswer> {
  const grant = await authorizeDataAccess({ apiKey: options.apiKey, orgId: options.orgId });
  const parsed = usagePeriodSchema(hubToday(), { from: "from", to: "to" }).safeParse(queryInput(options.searchParams, ["from", "to"]));
  if (!parsed.success) throw fromZodError(parsed.error);
  const { from, to } = parsed.data;
  const range = dayRange({ from, to });
  const rows = await countUsage({ institutionIds: grant.subtree.map((i) => i.id), from: range.from!, until: range.until!, edtechId: grant.key.edtechId });
  return {
    instituicao: { id: grant.institution.id, nome: grant.institution.name },
    de: from,
    ate: to,
    uso: rows.map((r) => ({
      tipo: r.kind === "launch" ? "lancamento" : "entrada",
      dia: r.day,
      instituicaoId: r.institutionId,
      instituicao: r.institutionName,
      ferramentaId: r.toolId,
      ferramenta: r.toolName,
      perfil: r.role ?? "desconhecido",
      quantidade: r.count,
      formaDeEntrada: r.method,
    })),
  };
}
