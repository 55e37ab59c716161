import type { Metadata } from "next";
import Link from "@/components/link";
import { ActionForm, type TFieldSpec } from "@/components/management/action-form";
import { ConfirmAction } from "@/components/management/confirm-action";
import { ROLE_OPTIONS } from "@/components/management/labels";
import { card, sectionTitle } from "@/components/management/styles";
import { ROLE_LABEL } from "@/lib/labels";
import { LAUNCH_ATTRIBUTES } from "@/lib/server/launch/personal-launch-fields";
import { listPeople } from "@/lib/server/management/list-people";
import { listPlacements, type TPlacementRow } from "@/lib/server/management/list-placements";
import { listToolSharing, type TToolSharingRow } from "@/lib/server/management/list-tool-sharing";
import { previewToolLaunch } from "@/lib/server/management/preview-tool-launch";
import { requireManagerSection } from "@/lib/server/management/require-manager-page";
import { PERSONAL_ATTRIBUTES, PROFILE_ROLES } from "@/lib/validations/data-api";
import { roleRuleField, ZListQuerySchema } from "@/lib/validations/management";
import { SharingRuleCard } from "@/components/management/sharing-rule-card";
import { PreviewByRole, PreviewColumns, PreviewSection } from "@/components/management/sharing-preview";
import { placementAction, toolSharingAction } from "../actions";

export const metadata: Metadata = { title: "Ferramentas" };

// A launch carries only name and e-mail: the other attributes are never sent, for any role.
const NOT_LAUNCHED = Object.fromEntries(
  PERSONAL_ATTRIBUTES.filter((a) => !(LAUNCH_ATTRIBUTES as readonly string[]).includes(a)).flatMap((a) => [
    [a, "nao_compartilhado"],
    ...PROFILE_ROLES.map((role) => [roleRuleField(role, a), "nao_compartilhado"]),
  ]),
);

type Props = { params: Promise<{ institutionId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

function sharingStatus(tool: TToolSharingRow): string {
  if (tool.own) return "Configuração própria desta instituição";
  if (tool.inherited) return `Herdando as regras de ${tool.inherited.institutionName}`;
  return "Sem regra: a ferramenta não recebe nenhum dado pessoal";
}

function audienceOf(p: TPlacementRow): string {
  const roles = p.roles.map((r) => ROLE_LABEL[r]).join(", ");
  if (p.classId) return `Turma ${p.className} (${p.periodCode})${roles ? ` · só ${roles}` : ""}`;
  return roles ? `Só ${roles}` : "Toda a escola";
}

export default async function PlacementsPage({ params, searchParams }: Props) {
  const raw = await searchParams;
  const { scope, institution, basePath } = await requireManagerSection(params, "ferramentas");
  const [{ placements, tools, classes }, sharing] = await Promise.all([
    listPlacements({ scope, institutionId: institution.id }),
    listToolSharing({ scope, institutionId: institution.id }),
  ]);
  const selected = sharing.find((t) => t.toolId === one(raw.ferramenta));
  const personQuery = ZListQuerySchema.shape.q.parse(raw.q);
  const [preview, people] = selected
    ? await Promise.all([
        previewToolLaunch({ scope, institutionId: institution.id, toolId: selected.toolId, profileId: one(raw.pessoa) }),
        personQuery ? listPeople({ scope, institutionId: institution.id, q: personQuery, page: 1, pageSize: 8 }) : null,
      ])
    : [null, null];
  const action = placementAction.bind(null, institution.id);
  const sharingAction = toolSharingAction.bind(null, institution.id);
  const fields = (p?: TPlacementRow): TFieldSpec[] => [
    { name: "toolId", label: "Ferramenta", type: "select", required: true, defaultValue: p?.toolId ?? tools[0]?.id ?? "", options: tools.map((t) => ({ value: t.id, label: `${t.title} — ${t.edtechName}` })) },
    { name: "title", label: "Título no Hub", defaultValue: p?.title ?? "", hint: "Opcional; aparece no cartão da galeria e vai à ferramenta como resource_link_title." },
    {
      name: "audience",
      label: "Para quem",
      type: "radio",
      defaultValue: p ? (p.classId ? "turma" : p.roles.length ? "papeis" : "escola") : "escola",
      options: [
        { value: "escola", label: "Toda a escola" },
        { value: "papeis", label: "Alguns perfis" },
        { value: "turma", label: "Uma turma" },
      ],
    },
    { name: "roles", label: "Perfis", type: "checkboxes", defaultValue: p?.roles ?? [], options: ROLE_OPTIONS, showWhen: { field: "audience", in: ["papeis", "turma"] }, hint: "Numa turma, deixe em branco para alunos e professores da turma." },
    {
      name: "classId",
      label: "Turma",
      type: "select",
      defaultValue: p?.classId ?? classes[0]?.id ?? "",
      options: classes.map((c) => ({ value: c.id, label: `${c.name} (${c.periodCode})` })),
      showWhen: { field: "audience", in: ["turma"] },
    },
    { name: "customParams", label: "Parâmetros personalizados", type: "textarea", defaultValue: p ? Object.entries(p.customParams).map(([k, v]) => `${k}=${v}`).join("\n") : "", placeholder: "nivel=basico", hint: "Um chave=valor por linha; a ferramenta recebe custom_<chave>." },
  ];
  return (
    <div className="space-y-6">
      <section aria-labelledby="placements-title" className="space-y-3">
        <h2 id="placements-title" className={sectionTitle}>Ferramentas disponibilizadas</h2>
        <p className="text-sm text-slate-600">Cada disponibilização tem um identificador próprio, enviado à ferramenta como <code>resource_link_id</code>. Editar mantém o identificador.</p>
        {placements.length === 0 ? (
          <div className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">Nenhuma ferramenta disponibilizada nesta instituição ainda.</div>
        ) : (
          <ul className="space-y-3">
            {placements.map((p) => (
              <li key={p.id} className={card}>
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div>
                    <p className="font-semibold">{p.title ?? p.toolTitle}</p>
                    <p className="text-sm text-slate-600">{p.toolTitle} · {p.edtechName}{p.toolStatus === "withdrawn" && " · retirada pela edtech"}</p>
                    <p className="mt-1 text-sm">{audienceOf(p)}</p>
                    <p className="mt-1 text-xs text-slate-500">resource_link_id: <span className="font-mono" data-testid="resource-link-id">{p.id}</span></p>
                  </div>
                  <ConfirmAction action={action} hidden={{ intent: "delete", placementId: p.id }} label="Remover" ariaLabel={`Remover ${p.title ?? p.toolTitle}`} question="Remover a ferramenta para esse público?" danger />
                </div>
                <details className="mt-3">
                  <summary className="cursor-pointer text-sm text-brand-700">Editar</summary>
                  <div className="mt-3">
                    <ActionForm action={action} ariaLabel={`Editar ${p.title ?? p.toolTitle}`} submitLabel="Salvar" hidden={{ placementId: p.id }} fields={fields(p)} />
                  </div>
                </details>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="tool-sharing-title" className="space-y-3">
        <h2 id="tool-sharing-title" className={sectionTitle}>Dados pessoais enviados às ferramentas</h2>
        <p className="text-sm text-slate-600">
          Ao abrir uma ferramenta, o Hub pode enviar o nome (<code>lis_person_name_full</code>) e o e-mail (<code>lis_person_contact_email_primary</code>) de quem abriu.
          Escolha, ferramenta por ferramenta: compartilhado, anonimizado (a ferramenta recebe um pseudônimo estável, nunca o valor) ou não compartilhado.
          Sem vínculo com a edtech, a ferramenta não abre.
        </p>
        {sharing.length === 0 ? (
          <div className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">Nenhuma ferramenta: vincule uma edtech que tenha ferramentas cadastradas.</div>
        ) : (
          <ul className="space-y-4">
            {sharing.map((tool) => (
              <SharingRuleCard
                key={tool.toolId}
                title={tool.toolTitle}
                subtitle={<>{tool.edtechName}{!tool.placedHere && " · não disponibilizada nesta instituição"}</>}
                status={sharingStatus(tool)}
                statusTestId={`tool-status-${tool.toolId}`}
                previewHref={`${basePath}?ferramenta=${tool.toolId}#previa`}
                previewLabel="Ver o que esta ferramenta recebe"
                action={sharingAction}
                // A launch carries only name and e-mail; the other attributes are never sent.
                hidden={{ toolId: tool.toolId, ...NOT_LAUNCHED }}
                attributes={LAUNCH_ATTRIBUTES}
                rule={tool}
                noInheritedLabel="Nenhum dado pessoal"
              />
            ))}
          </ul>
        )}
      </section>

      {selected && preview && (
        <PreviewSection
          titleId="tool-preview-title"
          title={<>O que {selected.toolTitle} recebe</>}
          intro={<>Os campos pessoais do lançamento LTI de uma pessoa real, calculados pelo mesmo código do lançamento (mesmas regras, mesmos pseudônimos), com a regra da instituição dessa pessoa.</>}
          search={{ basePath, partnerParam: "ferramenta", partnerId: selected.toolId, query: personQuery, people }}
        >
          {preview.status === "no_contract" ? (
            <p className="mt-4 rounded-md bg-amber-50 p-3 text-sm text-amber-900">A edtech desta ferramenta não tem vínculo com esta instituição: a ferramenta não abre e nada é enviado.</p>
          ) : preview.status === "no_person" ? (
            <p className="mt-4 text-sm text-slate-600">Esta instituição ainda não tem usuários: cadastre alguém para ver a prévia.</p>
          ) : (
            <>
              <PreviewColumns
                partner={{
                  title: "Campos pessoais do lançamento", testId: "preview-launch", value: Object.fromEntries(preview.fields),
                  note: preview.fields.length === 0 && <p className="mt-1 text-sm text-slate-600">Nenhum dado pessoal: a ferramenta recebe apenas o identificador do perfil e o papel.</p>,
                }}
                hub={{ title: `A mesma pessoa no Hub (${preview.person.institutionName}, ${ROLE_LABEL[preview.person.role]})`, value: { nome_usuario: preview.person.name, email_usuario: preview.person.email } }}
              />
              <PreviewByRole
                idPrefix="tool-preview"
                intro="Cada lançamento segue a regra do perfil de quem abre a ferramenta. Abaixo, a pessoa alterada mais recentemente de cada perfil."
                samples={preview.porPerfil.map((sample) => ({
                  role: sample.person.role, heading: `${ROLE_LABEL[sample.person.role]} (${sample.person.name})`, value: Object.fromEntries(sample.fields), testId: `preview-launch-${sample.person.role}`,
                }))}
              />
            </>
          )}
        </PreviewSection>
      )}

      <section aria-labelledby="new-placement-title" className={card}>
        <h2 id="new-placement-title" className={sectionTitle}>Disponibilizar ferramenta</h2>
        {tools.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">
            Nenhuma ferramenta disponível: as ferramentas vêm das edtechs vinculadas. Vincule uma em <Link href={`/gestao/${institution.id}/aplicativos`} className="text-brand-700 underline">Aplicativos e dados</Link>.
          </p>
        ) : (
          <div className="mt-3">
            <ActionForm action={action} ariaLabel="Disponibilizar ferramenta" submitLabel="Disponibilizar" resetOnSuccess fields={fields()} />
          </div>
        )}
      </section>
    </div>
  );
}
