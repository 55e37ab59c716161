import type { Metadata } from "next";
import Link from "@/components/link";
import { formatDateTime } from "@/components/management/labels";
import { FormSection } from "@/components/management/page-sections";
import { getInstitutionOverview } from "@/lib/server/management/get-institution-overview";
import { requireManagerPage } from "@/lib/server/management/require-manager-page";
import { subtreeOf } from "@/lib/server/institution-tree/subtree-of";
import { moveInstitutionAction, renameInstitutionAction } from "../actions";
import { cardSettingsAction } from "./actions";

export const metadata: Metadata = { title: "Gestão da instituição" };

type Props = { params: Promise<{ institutionId: string }> };

export default async function InstitutionOverviewPage({ params }: Props) {
  const { institutionId } = await params;
  const { scope, institution } = await requireManagerPage({ returnTo: `/gestao/${institutionId}`, institutionId });
  const overview = await getInstitutionOverview({ scope, institutionId: institution.id });
  const base = `/gestao/${institution.id}`;
  const stats: [string, number, string][] = [
    ["Alunos", overview.people.aluno, `${base}/pessoas?role=aluno`],
    ["Professores", overview.people.professor, `${base}/pessoas?role=professor`],
    ["Responsáveis", overview.people.responsavel, `${base}/pessoas?role=responsavel`],
    ["Gestores", overview.people.gestor, `${base}/pessoas?role=gestor`],
    ["Turmas", overview.classes, `${base}/turmas`],
    ["Períodos", overview.periods, `${base}/periodos`],
    ["Disciplinas", overview.subjects, `${base}/disciplinas`],
    ["Ferramentas disponibilizadas", overview.placements, `${base}/ferramentas`],
  ];
  // A move may land under any institution in reach except itself and its own descendants.
  const own = new Set(subtreeOf({ institutions: scope.institutions, rootId: institution.id }).map((i) => i.id));
  const targets = scope.institutions.filter((i) => !own.has(i.id));
  const movable = institution.id !== scope.rootId && targets.length > 0;
  return (
    <div className="space-y-8">
      <section aria-labelledby="numbers-title">
        <h2 id="numbers-title" className="sr-only">Números</h2>
        <ul className="grid grid-cols-2 gap-3 sm:grid-cols-4">
          {stats.map(([label, value, href]) => (
            <li key={label}>
              <Link href={href} className="block rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-600">
                <span className="block text-2xl font-bold">{value.toLocaleString("pt-BR")}</span>
                <span className="text-sm text-slate-600">{label}</span>
              </Link>
            </li>
          ))}
        </ul>
        <p className="mt-3 text-sm text-slate-600">
          {overview.lastChangeAt ? `Última alteração de dados escolares: ${formatDateTime(overview.lastChangeAt)}.` : "Nenhum dado escolar registrado ainda: comece pelos períodos ou importe um arquivo CSV."}
        </p>
      </section>
      <div className="grid gap-6 md:grid-cols-2">
        <FormSection id="rename" title="Nome da instituição" form={{
          action: renameInstitutionAction.bind(null, institution.id), ariaLabel: "Renomear instituição", submitLabel: "Salvar nome",
          fields: [{ name: "name", label: "Nome", required: true, defaultValue: institution.name }],
        }} />
        <FormSection id="move" title="Posição na hierarquia" form={movable ? {
          action: moveInstitutionAction.bind(null, institution.id), ariaLabel: "Mover instituição", submitLabel: "Mover",
          fields: [
            {
              name: "parentId",
              label: "Fica abaixo de",
              type: "select",
              defaultValue: institution.parentId ?? "",
              options: targets.map((i) => ({ value: i.id, label: `${"— ".repeat(i.depth)}${i.name}` })),
              hint: "Vínculos com edtechs e regras de compartilhamento herdados passam a vir da nova instituição superior.",
            },
          ],
        } : undefined}>
          {institution.id === scope.rootId ? (
            <p className="text-sm text-slate-600">Esta é a instituição do seu perfil de gestor; só a gestão acima dela pode movê-la.</p>
          ) : (
            !movable && <p className="text-sm text-slate-600">Não há outra instituição da sua gestão para onde movê-la.</p>
          )}
        </FormSection>
        <FormSection
          id="cards"
          title="Crachás de acesso"
          intro="Crachás com código QR, impressos na página de cada turma, fazem o aluno entrar sem e-mail nem senha. Valem para os perfis desta instituição."
          form={{
            action: cardSettingsAction.bind(null, institution.id), ariaLabel: "Regras dos crachás", submitLabel: "Salvar regras dos crachás",
            fields: [
              {
                name: "cardNetworks",
                label: "Redes permitidas (faixas CIDR, uma por linha)",
                type: "textarea",
                defaultValue: overview.cards.networks.join("\n"),
                placeholder: "10.20.0.0/16",
                hint: "Vazio: o crachá vale em qualquer rede. Com faixas, só aparelhos conectados a elas entram com crachá.",
              },
              {
                name: "cardStudentsOnly",
                label: "Quem pode entrar com crachá",
                type: "select",
                defaultValue: overview.cards.studentsOnly ? "1" : "0",
                options: [
                  { value: "1", label: "Só alunos" },
                  { value: "0", label: "Qualquer perfil com crachá" },
                ],
              },
            ],
          }}
        />
      </div>
    </div>
  );
}
