import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm, type TFieldSpec } from "@/components/gestao/action-form";
import { ConfirmAction } from "@/components/gestao/confirm-action";
import { ROLE_OPTIONS } from "@/components/gestao/labels";
import { card, sectionTitle } from "@/components/gestao/styles";
import { ROLE_LABEL } from "@/lib/labels";
import { listPlacements, type TPlacementRow } from "@/lib/server/management/list-placements";
import { requireManagerPage } from "@/lib/server/management/require-manager-page";
import { placementAction } from "../actions";

export const metadata: Metadata = { title: "Ferramentas" };

type Props = { params: Promise<{ institutionId: string }> };

function audienceOf(p: TPlacementRow): string {
  const roles = p.roles.map((r) => ROLE_LABEL[r]).join(", ");
  if (p.classId) return `Turma ${p.className} (${p.periodCode})${roles ? ` · só ${roles}` : ""}`;
  return roles ? `Só ${roles}` : "Toda a escola";
}

export default async function PlacementsPage({ params }: Props) {
  const { institutionId } = await params;
  const { scope, institution } = await requireManagerPage({ returnTo: `/gestao/${institutionId}/ferramentas`, institutionId });
  const { placements, tools, classes } = await listPlacements({ scope, institutionId: institution.id });
  const action = placementAction.bind(null, institution.id);
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
      <section aria-labelledby="new-placement-title" className={card}>
        <h2 id="new-placement-title" className={sectionTitle}>Disponibilizar ferramenta</h2>
        {tools.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">
            Nenhuma ferramenta disponível: as ferramentas vêm das edtechs vinculadas. Vincule uma em <Link href={`/gestao/${institution.id}/aplicativos`} className="text-brand-700 hover:underline">Aplicativos e dados</Link>.
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
