import type { Metadata } from "next";
import Link from "@/components/link";
import { notFound } from "next/navigation";
import { DataTable } from "@/components/data-table";
import { CreateApiKeyForm, RevokeApiKeyForm } from "@/components/developer/api-key-forms";
import { ApplicationForm } from "@/components/developer/application-form";
import { DeleteApplicationForm } from "@/components/developer/delete-application-form";
import { OneRosterAccess } from "@/components/developer/oneroster-access";
import { RotateSecretForm } from "@/components/developer/rotate-secret-form";
import { getDeveloperApplication } from "@/lib/server/developer/get-developer-application";
import { requireDeveloper } from "@/lib/server/developer/require-developer";
import { env } from "@/lib/env";
import { ALL_ONEROSTER_SCOPES } from "@/lib/oneroster/scopes";
import { listOneRosterEnablements } from "@/lib/server/oneroster/list-oneroster-enablements";
import {
  createApiKeyAction,
  deleteApplicationAction,
  revokeApiKeyAction,
  rotateApplicationSecretAction,
  updateApplicationAction,
} from "../actions";

type Props = { params: Promise<{ applicationId: string }> };

export const metadata: Metadata = { title: "Aplicação" };

const when = (date: Date | null) => (date ? date.toLocaleString("pt-BR") : "—");

export default async function DeveloperApplicationPage({ params }: Props) {
  const { applicationId } = await params;
  const developer = await requireDeveloper(`/desenvolvedor/aplicacoes/${encodeURIComponent(applicationId)}`);
  const app = await getDeveloperApplication({ personId: developer.personId, applicationId });
  if (!app) notFound();
  const oneRoster = await listOneRosterEnablements({ applicationId: app.id, edtechId: app.edtechId });
  return (
    <section className="space-y-10">
      <div>
        <Link href="/desenvolvedor" className="text-sm font-medium text-brand-700 hover:underline">← Visão geral</Link>
        <h1 className="mt-3 text-2xl font-bold">{app.name}</h1>
        <p className="mt-1 text-sm text-slate-600">{app.edtechName} · criada em {when(app.createdAt)}</p>
      </div>

      <section aria-labelledby="credentials-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="credentials-title" className="text-lg font-semibold">Credenciais OAuth 2</h2>
        <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-[10rem_1fr]">
          <dt className="font-medium">client_id</dt>
          <dd className="break-all font-mono" data-testid="client-id">{app.clientId}</dd>
          <dt className="font-medium">client_secret</dt>
          <dd className="text-slate-700">Guardado apenas como hash; não pode ser exibido. Gere um novo se o atual se perdeu.</dd>
        </dl>
        <div className="mt-4">
          <RotateSecretForm action={rotateApplicationSecretAction} applicationId={app.id} />
        </div>
      </section>

      <section aria-labelledby="keys-title" className="space-y-4">
        <div>
          <h2 id="keys-title" className="text-lg font-semibold">Chaves da API de dados</h2>
          <p className="text-sm text-slate-600">
            Envie a chave no cabeçalho <code>x-api-key</code> em <code>GET /manager/v1/data/&#123;org_id&#125;</code>. Revogar vale a partir da próxima requisição.
          </p>
        </div>
        <CreateApiKeyForm action={createApiKeyAction} applicationId={app.id} />
        <DataTable caption="Chaves da API" headers={["Prefixo", "Nome", "Criada", "Último uso", "Situação"]} rowHeader empty="Nenhuma chave criada."
          rows={app.apiKeys.map((key) => ({
            key: key.id,
            data: { "data-key-prefix": key.prefix },
            cells: [
              <span key="prefix" className="font-mono">{key.prefix}…</span>,
              key.name || "—",
              when(key.createdAt),
              key.lastUsedAt ? when(key.lastUsedAt) : "Nunca usada",
              key.revokedAt ? (
                <span key="state" className="text-slate-600">Revogada em {when(key.revokedAt)}</span>
              ) : (
                <RevokeApiKeyForm key="state" action={revokeApiKeyAction} applicationId={app.id} apiKeyId={key.id} prefix={key.prefix} />
              ),
            ],
          }))}
        />
      </section>

      <section aria-labelledby="webhooks-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="webhooks-title" className="text-lg font-semibold">Webhooks</h2>
        <p className="mt-1 text-sm text-slate-600">Receba os eventos da API de dados por POST assinado, sem consultar: endpoints, registro de entregas e reenvio.</p>
        <Link href={`/desenvolvedor/aplicacoes/${app.id}/webhooks`} className="mt-3 inline-block text-sm font-medium text-brand-700 hover:underline">Configurar webhooks →</Link>
      </section>

      <OneRosterAccess baseUrl={env().HUB_BASE_URL} clientId={app.clientId} scopes={ALL_ONEROSTER_SCOPES} institutions={oneRoster} />

      <section aria-labelledby="institutions-title" className="space-y-3">
        <div>
          <h2 id="institutions-title" className="text-lg font-semibold">Instituições</h2>
          <p className="text-sm text-slate-600">
            Redes e escolas vinculadas à sua edtech e as que liberaram esta aplicação. O <code>org_id</code> é o identificador usado na API de dados;
            sem acesso liberado pelo gestor, a API responde 403.
          </p>
        </div>
        <DataTable caption="Instituições" headers={["Instituição", "org_id", "Acesso desta aplicação"]} rowHeader empty="Nenhuma instituição vinculada à sua edtech ainda."
          rows={app.institutions.map((inst) => ({
            key: inst.id,
            data: { "data-institution": inst.name },
            cells: [
              <>
                <span className="font-medium">{inst.name}</span>
                <span className="block text-xs text-slate-500">
                  {inst.kind === "network" ? "Rede" : "Escola"}
                  {inst.linked ? " · vinculada à edtech" : ""}
                </span>
              </>,
              <span key="id" className="font-mono text-xs" data-org-id={inst.id}>{inst.id}</span>,
              inst.access ? (
                <>
                  Liberado
                  <span className="block text-xs text-slate-500">
                    Atributos: {inst.access.allowedAttributes.join(", ") || "nenhum"}
                    {inst.access.anonymizedAttributes.length > 0 && ` (anonimizados: ${inst.access.anonymizedAttributes.join(", ")})`}
                  </span>
                </>
              ) : (
                <span key="access" className="text-slate-600">Não liberado</span>
              ),
            ],
          }))}
        />
      </section>

      <section aria-labelledby="app-edit-title" className="max-w-2xl">
        <h2 id="app-edit-title" className="mb-4 text-lg font-semibold">Editar</h2>
        <ApplicationForm
          mode="edit"
          action={updateApplicationAction}
          applicationId={app.id}
          initial={{
            name: app.name,
            description: app.description,
            homepageUrl: app.homepageUrl ?? "",
            redirectUris: app.redirectUris.join("\n"),
            defaultResponseType: app.defaultResponseType,
          }}
        />
      </section>

      <section aria-labelledby="delete-title" className="max-w-2xl rounded-xl border border-red-200 bg-white p-5 shadow-sm">
        <h2 id="delete-title" className="mb-2 text-lg font-semibold text-red-800">Excluir aplicação</h2>
        <DeleteApplicationForm action={deleteApplicationAction} applicationId={app.id} name={app.name} />
      </section>
    </section>
  );
}
