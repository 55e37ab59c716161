import type { Metadata } from "next";
import { ActionForm } from "@/components/management/action-form";
import { ConfirmAction } from "@/components/management/confirm-action";
import { formatDateTime } from "@/components/management/labels";
import { ROLE_LABEL } from "@/lib/labels";
import { card, sectionTitle } from "@/components/management/styles";
import { listApplicationAccess, type TApplicationAccessRow } from "@/lib/server/management/list-application-access";
import { listEdtechLinks } from "@/lib/server/management/list-edtech-links";
import { listPeople } from "@/lib/server/management/list-people";
import { previewApplicationData } from "@/lib/server/management/preview-application-data";
import { requireManagerSection } from "@/lib/server/management/require-manager-page";
import { PERSONAL_ATTRIBUTES } from "@/lib/validations/data-api";
import { ZListQuerySchema } from "@/lib/validations/management";
import { SharingRuleCard } from "@/components/management/sharing-rule-card";
import { PreviewByRole, PreviewColumns, PreviewSection } from "@/components/management/sharing-preview";
import { applicationAccessAction, edtechLinkAction } from "../actions";

export const metadata: Metadata = { title: "Aplicativos e dados" };

type Props = { params: Promise<{ institutionId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function status(app: TApplicationAccessRow): string {
  if (!app.enabled) return "Não habilitada: a aplicação não lê dados desta instituição";
  const rule = app.own ? "Configuração própria desta instituição" : `Herdando as regras de ${app.inherited?.institutionName ?? ""}`;
  return app.oneRosterEnabled ? `${rule} · OneRoster 1.2 habilitado` : rule;
}

export default async function ApplicationsPage({ params, searchParams }: Props) {
  const raw = await searchParams;
  const { scope, institution, basePath } = await requireManagerSection(params, "aplicativos");
  const [links, applications] = await Promise.all([listEdtechLinks({ scope, institutionId: institution.id }), listApplicationAccess({ scope, institutionId: institution.id })]);
  const selected = applications.find((a) => a.applicationId === one(raw.app));
  const personQuery = ZListQuerySchema.shape.q.parse(raw.q);
  const [preview, people] = selected
    ? await Promise.all([
        previewApplicationData({ scope, institutionId: institution.id, applicationId: selected.applicationId, profileId: one(raw.pessoa) }),
        personQuery ? listPeople({ scope, institutionId: institution.id, q: personQuery, page: 1, pageSize: 8 }) : null,
      ])
    : [null, null];
  const linkAction = edtechLinkAction.bind(null, institution.id);
  const accessAction = applicationAccessAction.bind(null, institution.id);
  return (
    <div className="space-y-8">
      <section aria-labelledby="links-title" className="space-y-3">
        <h2 id="links-title" className={sectionTitle}>Edtechs vinculadas</h2>
        <p className="text-sm text-slate-600">O vínculo é o contrato com a edtech: ele vale para esta instituição e para todas as unidades abaixo dela.</p>
        {links.links.length === 0 ? (
          <div className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">Nenhuma edtech vinculada. Vincule abaixo para habilitar as aplicações e ferramentas dela.</div>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm">
            {links.links.map((l) => (
              <li key={l.linkId} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
                <span>
                  <span className="font-medium">{l.edtechName}</span>
                  <span className="ml-2 text-sm text-slate-600">
                    {l.inherited ? `herdado de ${l.linkedAt.name}` : `vinculada aqui em ${formatDateTime(l.linkedOn)}`}
                  </span>
                </span>
                {!l.inherited && (
                  <ConfirmAction
                    action={linkAction}
                    hidden={{ edtechId: l.edtechId, linked: "0" }}
                    label="Desvincular"
                    ariaLabel={`Desvincular ${l.edtechName}`}
                    question={l.alsoInherited ? "Desvincular aqui? O vínculo herdado continua valendo." : "Desvincular? As aplicações da edtech deixam de ler os dados daqui e das unidades abaixo."}
                    danger
                  />
                )}
              </li>
            ))}
          </ul>
        )}
        {links.available.length > 0 && (
          <div className={card}>
            <ActionForm
              action={linkAction}
              ariaLabel="Vincular edtech"
              submitLabel="Vincular edtech"
              hidden={{ linked: "1" }}
              fields={[{ name: "edtechId", label: "Edtech", type: "select", defaultValue: links.available[0]!.id, options: links.available.map((e) => ({ value: e.id, label: e.name })) }]}
            />
          </div>
        )}
      </section>

      <section aria-labelledby="apps-title" className="space-y-3">
        <h2 id="apps-title" className={sectionTitle}>Aplicações e dados compartilhados</h2>
        <p className="text-sm text-slate-600">
          Para cada aplicação das edtechs vinculadas, escolha atributo por atributo: compartilhado, anonimizado (a aplicação recebe um pseudônimo estável, nunca o valor) ou não compartilhado.
          É o objeto <code>configuracao</code> da API de dados.
        </p>
        {applications.length === 0 ? (
          <div className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">Nenhuma aplicação disponível: vincule uma edtech que tenha aplicações cadastradas.</div>
        ) : (
          <ul className="space-y-4">
            {applications.map((app) => (
              <SharingRuleCard
                key={app.applicationId}
                title={app.applicationName}
                subtitle={<>{app.edtechName}{app.description && ` · ${app.description}`}</>}
                status={status(app)}
                statusTestId={`status-${app.applicationId}`}
                previewHref={`${basePath}?app=${app.applicationId}#previa`}
                previewLabel="Ver o que esta aplicação recebe"
                action={accessAction}
                hidden={{ applicationId: app.applicationId }}
                attributes={PERSONAL_ATTRIBUTES}
                rule={app}
                noInheritedLabel="Não habilitar"
                oneRoster
              />
            ))}
          </ul>
        )}
      </section>

      {selected && preview && (
        <PreviewSection
          titleId="preview-title"
          title={<>O que {selected.applicationName} recebe</>}
          intro={<>Um registro real, exatamente como a API de dados o entrega a esta aplicação em <code>GET /manager/v1/data/{institution.id}</code> (mesmo código, mesmos pseudônimos).</>}
          search={{ basePath, partnerParam: "app", partnerId: selected.applicationId, query: personQuery, people }}
        >
          {preview.status !== "ok" ? (
            <p className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900">
              {preview.status === "no_contract" ? "A edtech desta aplicação não tem vínculo com esta instituição: a API responde 401." : "A aplicação não está habilitada aqui: a API responde 403 e nada é entregue."}
            </p>
          ) : (
            <>
              <PreviewColumns
                partner={{ title: "Resposta da API (configuracao e o registro)", testId: "preview-api", value: { configuracao: preview.configuracao, dados: preview.evento ? { usuario: [preview.evento] } : {} } }}
                hub={{ title: "O mesmo registro no Hub", value: preview.original ?? null, empty: "Esta instituição ainda não tem usuários: cadastre alguém para ver a prévia." }}
              />
              <PreviewByRole
                idPrefix="preview"
                intro="Cada registro segue a regra do perfil da pessoa. Abaixo, a pessoa alterada mais recentemente de cada perfil, como a API a entrega."
                samples={preview.porPerfil.map((sample) => ({ role: sample.role, heading: ROLE_LABEL[sample.role], value: sample.evento?.registro ?? null, testId: `preview-api-${sample.role}` }))}
              />
            </>
          )}
        </PreviewSection>
      )}
    </div>
  );
}
