import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/management/action-form";
import { ConfirmAction } from "@/components/management/confirm-action";
import { DataTable } from "@/components/data-table";
import { formatDay } from "@/components/management/labels";
import { card, sectionTitle } from "@/components/management/styles";
import { listPeriods } from "@/lib/server/management/list-periods";
import { requireManagerPage } from "@/lib/server/management/require-manager-page";
import { schoolDataAction } from "../actions";

export const metadata: Metadata = { title: "Períodos" };

type Props = { params: Promise<{ institutionId: string }> };

export default async function PeriodsPage({ params }: Props) {
  const { institutionId } = await params;
  const { scope, institution } = await requireManagerPage({ returnTo: `/gestao/${institutionId}/periodos`, institutionId });
  const periods = await listPeriods({ scope, institutionId: institution.id });
  const action = schoolDataAction.bind(null, institution.id);
  const year = new Date().getFullYear();
  return (
    <div className="space-y-6">
      <section aria-labelledby="periods-title" className="space-y-3">
        <h2 id="periods-title" className={sectionTitle}>Períodos letivos</h2>
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
              <div key="a" className="flex flex-col items-start gap-2">
                <details>
                  <summary className="cursor-pointer text-sm text-brand-700">Editar</summary>
                  <div className="mt-2 w-72">
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
                  </div>
                </details>
                {p.classCount === 0 ? (
                  <ConfirmAction action={action} hidden={{ type: "deletePeriod", periodId: p.id }} label="Excluir" ariaLabel={`Excluir período ${p.code}`} question="Excluir o período?" danger />
                ) : (
                  <span className="text-xs text-slate-500">Tem turmas: não pode ser excluído</span>
                )}
              </div>,
            ],
          }))}
        />
      </section>
      <section aria-labelledby="new-period-title" className={card}>
        <h2 id="new-period-title" className={sectionTitle}>Novo período</h2>
        <div className="mt-3">
          <ActionForm
            action={action}
            ariaLabel="Novo período"
            submitLabel="Criar período"
            resetOnSuccess
            columns={2}
            hidden={{ type: "createPeriod", institutionId: institution.id }}
            fields={[
              { name: "code", label: "Código (ano)", required: true, placeholder: String(year + 1), maxLength: 4 },
              { name: "name", label: "Nome", required: true, placeholder: `Ano letivo ${year + 1}` },
              { name: "startsOn", label: "Início", type: "date", required: true },
              { name: "endsOn", label: "Fim", type: "date", required: true },
            ]}
          />
        </div>
      </section>
    </div>
  );
}
