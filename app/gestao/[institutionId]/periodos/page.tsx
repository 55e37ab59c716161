import type { Metadata } from "next";
import Link from "@/components/link";
import { ActionForm } from "@/components/management/action-form";
import { ConfirmAction } from "@/components/management/confirm-action";
import { DataTable } from "@/components/data-table";
import { formatDay } from "@/components/management/labels";
import { createForm, FormSection, ListSection, RowActions } from "@/components/management/page-sections";
import { listPeriods } from "@/lib/server/management/list-periods";
import { requireManagerSection } from "@/lib/server/management/require-manager-page";
import { schoolDataAction } from "../actions";

export const metadata: Metadata = { title: "Períodos" };

type Props = { params: Promise<{ institutionId: string }> };

export default async function PeriodsPage({ params }: Props) {
  const { scope, institution, basePath } = await requireManagerSection(params, "periodos");
  const periods = await listPeriods({ scope, institutionId: institution.id });
  const action = schoolDataAction.bind(null, institution.id);
  const year = new Date().getFullYear();
  return (
    <div className="space-y-6">
      <ListSection id="periods" title="Períodos letivos" basePath={basePath}>
        <DataTable
          caption="Períodos letivos"
          headers={["Código", "Nome", "Início", "Fim", "Turmas", ""]}
          empty={<p>Nenhum período cadastrado. Crie o ano letivo abaixo antes de cadastrar turmas.</p>}
          rows={periods.map((p) => ({
            key: p.id,
            cells: [
              <span key="c" className="font-mono">{p.code}</span>,
              p.name,
              formatDay(p.startsOn),
              formatDay(p.endsOn),
              <Link key="t" href={`/gestao/${institution.id}/turmas?periodo=${p.code}`} className="text-brand-700 hover:underline">{p.classCount}</Link>,
              <RowActions
                key="a"
                edit={
                  <ActionForm
                    action={action}
                    ariaLabel={`Editar período ${p.code}`}
                    submitLabel="Salvar"
                    hidden={{ type: "updatePeriod", periodId: p.id }}
                    fields={[
                      { name: "name", label: "Nome", defaultValue: p.name, required: true },
                      { name: "startsOn", label: "Início", type: "date", defaultValue: p.startsOn, required: true },
                      { name: "endsOn", label: "Fim", type: "date", defaultValue: p.endsOn, required: true },
                    ]}
                  />
                }
                remove={p.classCount === 0 ? <ConfirmAction action={action} hidden={{ type: "deletePeriod", periodId: p.id }} label="Excluir" ariaLabel={`Excluir período ${p.code}`} question="Excluir o período?" danger /> : null}
                keptBecause="Tem turmas: não pode ser excluído"
              />,
            ],
          }))}
        />
      </ListSection>
      <FormSection id="new-period" title="Novo período" form={{
          ...createForm(action, "createPeriod", institution.id), submitLabel: "Criar período",
          fields: [
            { name: "code", label: "Código (ano)", required: true, placeholder: String(year + 1), maxLength: 4 },
            { name: "name", label: "Nome", required: true, placeholder: `Ano letivo ${year + 1}` },
            { name: "startsOn", label: "Início", type: "date", required: true },
            { name: "endsOn", label: "Fim", type: "date", required: true },
          ],
        }}
      />
    </div>
  );
}
