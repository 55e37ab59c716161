import type { Metadata } from "next";
import Link from "@/components/link";
import { AccessLogTabs } from "@/components/management/access-log-tabs";
import { DataTable } from "@/components/data-table";
import { ATTRIBUTE_LABEL, CHANNEL_LABEL, formatDateTime } from "@/components/management/labels";
import { Pagination } from "@/components/management/pagination";
import { inputClass, secondaryButton, sectionTitle } from "@/components/management/styles";
import { listDataAccessLogs, type TDataAccessRow } from "@/lib/server/management/list-data-access-logs";
import { requireManagerSection } from "@/lib/server/management/require-manager-page";
import { ACCESS_CHANNELS, partnerFilterValue, ZAccessLogQuerySchema } from "@/lib/validations/management";

export const metadata: Metadata = { title: "Registro de acessos" };

type Props = { params: Promise<{ institutionId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const STATUS_LABEL: Record<number, string> = { 200: "Concedido", 400: "Pedido inválido", 401: "Sem vínculo", 403: "Sem acesso" };

const attributeLabel = (name: string) => (ATTRIBUTE_LABEL as Record<string, string>)[name] ?? name;

function PartnerCell({ row }: { row: TDataAccessRow }) {
  const { partner } = row;
  const kind = partner.kind === "tool" ? "Ferramenta" : "Aplicação";
  return (
    <span>
      {partner.name || (partner.kind === "tool" ? "Ferramenta" : "Aplicação")}
      {partner.deleted && <span className="ml-1 text-xs font-medium text-amber-800">({partner.kind === "tool" ? "ferramenta excluída" : "aplicação excluída"})</span>}
      <span className="block text-xs text-slate-500">{row.edtechName ? `${kind} · ${row.edtechName}` : kind}</span>
    </span>
  );
}

function DataCell({ row }: { row: TDataAccessRow }) {
  const filters = Object.entries(row.filters);
  if (row.attributes.length === 0 && filters.length === 0) return <>—</>;
  return (
    <span className="space-y-1">
      {row.attributes.length > 0 && (
        <span className="block">
          <span className="sr-only">Atributos: </span>
          {row.attributes.map(attributeLabel).join(", ")}
        </span>
      )}
      {filters.length > 0 && <code className="block break-all text-xs">{filters.map(([k, v]) => `${k}=${v}`).join(" · ")}</code>}
    </span>
  );
}

export default async function AccessLogPage({ params, searchParams }: Props) {
  const query = ZAccessLogQuerySchema.parse(await searchParams);
  const { scope, institution, basePath } = await requireManagerSection(params, "acessos");
  const result = await listDataAccessLogs({
    scope, institutionId: institution.id, partner: query.parceiro, channel: query.canal, from: query.de, to: query.ate, page: query.page,
  });
  const partner = query.parceiro ? partnerFilterValue(query.parceiro) : undefined;
  const filtered = Boolean(partner || query.canal || query.de || query.ate);
  return (
    <section aria-labelledby="log-title" className="space-y-3">
      <h2 id="log-title" className={sectionTitle}>Registro de acessos aos dados</h2>
      <AccessLogTabs institutionId={institution.id} current="acessos" />
      <p className="text-sm text-slate-600">
        Tudo o que saiu do hub para um parceiro, nesta instituição e nas unidades abaixo dela: leituras da API de dados e do resumo, consultas às
        informações do usuário, tokens de identidade emitidos e lançamentos de ferramentas (LTI). Aparecem os nomes dos atributos enviados, nunca os
        valores. O registro é da instituição: continua aqui mesmo depois que o parceiro exclui a aplicação.
      </p>
      <form method="get" action={basePath} className="flex flex-wrap items-end gap-3" aria-label="Filtrar acessos">
        <div className="min-w-0 max-w-full">
          <label htmlFor="parceiro" className="mb-1 block text-sm font-medium">Parceiro</label>
          <select id="parceiro" name="parceiro" defaultValue={partner ?? ""} className={`${inputClass} max-w-full`}>
            <option value="">Todos</option>
            {result.partners.map((p) => {
              const value = partnerFilterValue(p.id ? { kind: p.kind, id: p.id } : { kind: "deleted", name: p.name });
              const suffix = p.deleted ? " (aplicação excluída)" : p.kind === "tool" ? " (ferramenta)" : "";
              return <option key={value} value={value}>{`${p.name}${suffix}`}</option>;
            })}
          </select>
        </div>
        <div>
          <label htmlFor="canal" className="mb-1 block text-sm font-medium">Canal</label>
          <select id="canal" name="canal" defaultValue={query.canal ?? ""} className={inputClass}>
            <option value="">Todos</option>
            {ACCESS_CHANNELS.map((c) => (
              <option key={c} value={c}>{CHANNEL_LABEL[c]}</option>
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
        headers={["Quando", "Parceiro", "Canal", "Instituição", "Pessoa", "Dados enviados", "Resultado"]}
        empty={
          <p>
            Nenhum acesso registrado{filtered ? " com esses filtros" : ""}. Quando um parceiro ler dados desta instituição — pela API, pelas
            informações do usuário, por um token de identidade ou num lançamento de ferramenta —, o acesso aparece aqui.
          </p>
        }
        rows={result.items.map((r) => ({
          key: r.id,
          cells: [
            formatDateTime(r.at),
            <PartnerCell key="p" row={r} />,
            CHANNEL_LABEL[r.channel],
            r.institutionName,
            r.person ? (
              <Link key="pe" href={`/gestao/${r.institutionId}/pessoas/${r.person.profileId}`} className="text-brand-700 hover:underline">{r.person.name}</Link>
            ) : (
              "—"
            ),
            <DataCell key="d" row={r} />,
            <span key="s" className={r.status === 200 ? "text-emerald-700" : "text-red-700"}>
              {STATUS_LABEL[r.status] ?? `Erro ${r.status}`}
              {r.status === 200 && r.channel === "data_api" && <span className="block text-xs text-slate-500">{r.eventCount} eventos</span>}
            </span>,
          ],
        }))}
      />
      <Pagination basePath={basePath} params={{ parceiro: partner, canal: query.canal, de: query.de, ate: query.ate }} page={result.page} pageCount={result.pageCount} total={result.total} noun={["acesso", "acessos"]} />
    </section>
  );
}
