import type { Metadata } from "next";
import Link from "@/components/link";
import { notFound } from "next/navigation";
import { DataTable } from "@/components/data-table";
import { CreateWebhookForm, WebhookButtonForm } from "@/components/developer/webhook-forms";
import { requireDeveloper } from "@/lib/server/developer/require-developer";
import { getWebhookOverview } from "@/lib/server/webhooks/get-webhook-overview";
import { AppError } from "@/lib/errors";
import { createWebhookAction, deleteWebhookAction, enableWebhookAction, replayWebhookAction, sendTestWebhookAction } from "./actions";

type Props = { params: Promise<{ applicationId: string }> };

export const metadata: Metadata = { title: "Webhooks" };

const when = (date: Date | null) => (date ? date.toLocaleString("pt-BR") : "—");
const TRIGGERS: Record<string, string> = { delivery: "entrega", retry: "nova tentativa", replay: "reenvio manual", test: "teste" };

async function overviewOrNotFound(personId: string, applicationId: string) {
  try {
    return await getWebhookOverview({ personId, applicationId });
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
}

export default async function WebhooksPage({ params }: Props) {
  const { applicationId } = await params;
  const developer = await requireDeveloper(`/desenvolvedor/aplicacoes/${encodeURIComponent(applicationId)}/webhooks`);
  const { application, endpoints, attempts } = await overviewOrNotFound(developer.personId, applicationId);
  const urlOf = new Map(endpoints.map((e) => [e.id, e.url]));
  return (
    <section className="space-y-10">
      <div>
        <Link href={`/desenvolvedor/aplicacoes/${application.id}`} className="text-sm font-medium text-brand-700 hover:underline">← {application.name}</Link>
        <h1 className="mt-3 text-2xl font-bold">Webhooks</h1>
        <p className="mt-1 max-w-3xl text-sm text-slate-600">
          O Hub envia à sua aplicação os mesmos eventos que a API de dados devolveria, em lotes por instituição, na ordem do feed, assinados no padrão
          Standard Webhooks (cabeçalhos <code>webhook-id</code>, <code>webhook-timestamp</code> e <code>webhook-signature</code>). Um lote que falha é
          reenviado com o mesmo <code>webhook-id</code>, com espera crescente, por pelo menos 24 horas; depois disso o endpoint é desativado.
        </p>
      </div>

      <section aria-labelledby="new-webhook-title" className="max-w-2xl rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="new-webhook-title" className="mb-4 text-lg font-semibold">Novo endpoint</h2>
        <CreateWebhookForm action={createWebhookAction} applicationId={application.id} />
      </section>

      <section aria-labelledby="endpoints-title" className="space-y-4">
        <h2 id="endpoints-title" className="text-lg font-semibold">Endpoints</h2>
        {endpoints.length === 0 && <p className="text-sm text-slate-600">Nenhum endpoint criado.</p>}
        {endpoints.map((endpoint) => (
          <article key={endpoint.id} data-webhook-endpoint={endpoint.url} className="space-y-3 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
            <div className="flex flex-wrap items-start justify-between gap-3">
              <div>
                <p className="break-all font-mono text-sm">{endpoint.url}</p>
                <p className="text-xs text-slate-500">
                  {endpoint.description ? `${endpoint.description} · ` : ""}
                  Entidades: {endpoint.entities.join(", ") || "todas"} · Eventos: {endpoint.kinds.join(", ") || "todos"} · criado em {when(endpoint.createdAt)}
                </p>
              </div>
              <div className="flex flex-wrap gap-2">
                <WebhookButtonForm action={sendTestWebhookAction} fields={{ applicationId: application.id, endpointId: endpoint.id }} label="Enviar evento de teste" pendingLabel="Enviando…" />
                {endpoint.disabledAt && (
                  <WebhookButtonForm action={enableWebhookAction} fields={{ applicationId: application.id, endpointId: endpoint.id }} label="Reativar" pendingLabel="Reativando…" />
                )}
                <WebhookButtonForm
                  action={deleteWebhookAction}
                  fields={{ applicationId: application.id, endpointId: endpoint.id }}
                  label="Excluir"
                  pendingLabel="Excluindo…"
                  confirm={{ question: "O histórico de entregas deste endpoint também será apagado.", confirmLabel: "Excluir endpoint" }}
                />
              </div>
            </div>
            {endpoint.disabledAt && (
              <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-800">
                Desativado em {when(endpoint.disabledAt)}. {endpoint.disabledReason}
              </p>
            )}
            <DataTable
              caption={`Instituições acompanhadas por ${endpoint.url}`}
              headers={["Instituição", "Última entrega", "Falhas seguidas", "Próxima leitura", "Último erro"]}
              rowHeader
              empty="Nenhuma instituição liberou esta aplicação ainda."
              rows={endpoint.cursors.map((c) => ({
                key: c.institutionId,
                cells: [c.institutionName, when(c.deliveredAt), String(c.failures), when(c.dueAt), c.lastError ?? "—"],
              }))}
            />
          </article>
        ))}
      </section>

      <section aria-labelledby="log-title" className="space-y-3">
        <div>
          <h2 id="log-title" className="text-lg font-semibold">Registro de entregas</h2>
          <p className="text-sm text-slate-600">As últimas 50 tentativas. O Hub guarda o código de resposta e o tempo, nunca o conteúdo enviado ou recebido.</p>
        </div>
        <DataTable
          caption="Registro de entregas"
          headers={["Quando", "Endpoint", "Instituição", "webhook-id", "Eventos", "Tipo", "Resposta", "Tempo", ""]}
          empty="Nenhuma entrega ainda."
          rows={attempts.map((a) => ({
            key: a.id,
            data: { "data-attempt": a.messageId, "data-ok": String(a.ok) },
            cells: [
              when(a.attemptedAt),
              <span key="url" className="break-all font-mono text-xs">{urlOf.get(a.endpointId)}</span>,
              a.institutionName ?? "—",
              <span key="id" className="font-mono text-xs">{a.messageId}</span>,
              String(a.eventCount),
              TRIGGERS[a.trigger] ?? a.trigger,
              a.ok ? <span key="ok" className="text-emerald-700">{a.responseStatus} ✓</span> : <span key="fail" className="text-red-700">{a.error}</span>,
              `${a.latencyMs} ms`,
              a.replayable ? (
                <WebhookButtonForm key="replay" action={replayWebhookAction} fields={{ applicationId: application.id, attemptId: a.id }} label="Enviar de novo" pendingLabel="Enviando…" />
              ) : null,
            ],
          }))}
        />
      </section>
    </section>
  );
}
