import type { Metadata } from "next";
import { DataTable } from "@/components/gestao/data-table";
import { formatDateTime } from "@/components/gestao/labels";
import { Pagination } from "@/components/gestao/pagination";
import { inputClass, secondaryButton, sectionTitle } from "@/components/gestao/styles";
import { listDataAccessLogs } from "@/lib/server/management/list-data-access-logs";
import { requireManagerPage } from "@/lib/server/management/require-manager-page";
import { ZAccessLogQuerySchema } from "@/lib/validations/management";

export const metadata: Metadata = { title: "Registro de acessos" };

type Props = { params: Promise<{ institutionId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const STATUS_LABEL: Record<number, string> = { 200: "Concedido", 400: "Pedido inválido", 401: "Sem vínculo", 403: "Sem acesso" };

export default async function AccessLogPage({ params, searchParams }: Props) {
  const { institutionId } = await params;
  const query = ZAccessLogQuerySchema.parse(await searchParams);
  const { scope, institution } = await requireManagerPage({ returnTo: `/gestao/${institutionId}/acessos`, institutionId });
  const result = await listDataAccessLogs({ scope, institutionId: institution.id, applicationId: query.aplicacao, from: query.de, to: query.ate, page: query.page });
  const basePath = `/gestao/${institution.id}/acessos`;
  return (
    <section aria-labelledby="log-title" className="space-y-3">
      <h2 id="log-title" className={sectionTitle}>Registro de acessos aos dados</h2>
      <p className="text-sm text-slate-600">Cada leitura da API de dados ou do resumo por uma aplicação parceira, nesta instituição e nas unidades abaixo dela.</p>
      <form method="get" action={basePath} className="flex flex-wrap items-end gap-3" aria-label="Filtrar acessos">
        <div>
          <label htmlFor="aplicacao" className="mb-1 block text-sm font-medium">Aplicação</label>
          <select id="aplicacao" name="aplicacao" defaultValue={query.aplicacao ?? ""} className={inputClass}>
            <option value="">Todas</option>
            {result.applications.map((a) => (
              <option key={a.id} value={a.id}>{a.name}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor="de" className="mb-1 block text-sm font-medium">De</label>
          <input id="de" name="de" type="date" defaultValue={query.de ?? ""} className={inputClass} />
        </div>
        <div>
          <label htmlFor="ate" className="mb-1 block text-sm font-medium">Até</label>
          <input id="ate" name="ate" type="date" defaultValue={query.ate ?? ""} className={inputClass} />
        </div>
        <button type="submit" className={secondaryButton}>Filtrar</button>
      </form>
      <DataTable
        caption="Acessos aos dados"
        headers={["Quando", "Aplicação", "Instituição", "Consulta", "Filtros", "Resultado"]}
        empty={<p>Nenhum acesso registrado{query.aplicacao || query.de || query.ate ? " com esses filtros" : ""}. Quando uma aplicação ler os dados, a leitura aparece aqui.</p>}
        rows={result.items.map((r) => ({
          key: r.id,
          cells: [
            formatDateTime(r.at),
            <span key="a">{r.applicationName}<span className="block text-xs text-slate-500">{r.edtechName}</span></span>,
            r.institutionName,
            r.endpoint === "data" ? "Dados" : "Resumo",
            Object.keys(r.filters).length ? (
              <code key="f" className="break-all text-xs">{Object.entries(r.filters).map(([k, v]) => `${k}=${v}`).join(" · ")}</code>
            ) : (
              "—"
            ),
            <span key="s" className={r.status === 200 ? "text-emerald-700" : "text-red-700"}>
              {STATUS_LABEL[r.status] ?? `Erro ${r.status}`}
              {r.status === 200 && r.endpoint === "data" && <span className="block text-xs text-slate-500">{r.eventCount} eventos</span>}
            </span>,
          ],
        }))}
      />
      <Pagination basePath={basePath} params={{ aplicacao: query.aplicacao, de: query.de, ate: query.ate }} page={result.page} pageCount={result.pageCount} total={result.total} noun={["acesso", "acessos"]} />
    </section>
  );
}
