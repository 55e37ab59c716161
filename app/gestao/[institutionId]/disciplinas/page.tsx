import type { Metadata } from "next";
import { ActionForm } from "@/components/management/action-form";
import { ConfirmAction } from "@/components/management/confirm-action";
import { DataTable } from "@/components/data-table";
import { FilterForm } from "@/components/management/filter-form";
import { Pagination } from "@/components/management/pagination";
import { card, sectionTitle } from "@/components/management/styles";
import { listSubjects } from "@/lib/server/management/list-subjects";
import { requireManagerPage } from "@/lib/server/management/require-manager-page";
import { ZListQuerySchema } from "@/lib/validations/management";
import { schoolDataAction } from "../actions";

export const metadata: Metadata = { title: "Disciplinas" };

type Props = { params: Promise<{ institutionId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SubjectsPage({ params, searchParams }: Props) {
  const { institutionId } = await params;
  const query = ZListQuerySchema.parse(await searchParams);
  const { scope, institution } = await requireManagerPage({ returnTo: `/gestao/${institutionId}/disciplinas`, institutionId });
  const result = await listSubjects({ scope, institutionId: institution.id, q: query.q, page: query.page });
  const action = schoolDataAction.bind(null, institution.id);
  const basePath = `/gestao/${institution.id}/disciplinas`;
  return (
    <div className="space-y-6">
      <section aria-labelledby="subjects-title" className="space-y-3">
        <h2 id="subjects-title" className={sectionTitle}>Disciplinas</h2>
        <FilterForm basePath={basePath} q={query.q} searchLabel="Buscar disciplina" placeholder="Nome ou código" />
        <DataTable
          caption="Disciplinas"
          headers={["Nome", "Código", "Atribuições", ""]}
          empty={query.q ? <p>Nenhuma disciplina encontrada para “{query.q}”.</p> : <p>Nenhuma disciplina cadastrada. Crie abaixo ou importe um CSV.</p>}
          rows={result.items.map((s) => ({
            key: s.id,
            cells: [
              s.name,
              s.code ?? "—",
              s.assignmentCount,
              <div key="a" className="flex flex-col items-start gap-2">
                <details>
                  <summary className="cursor-pointer text-sm text-brand-700">Editar</summary>
                  <div className="mt-2 w-72">
                    <ActionForm
                      action={action}
                      ariaLabel={`Editar disciplina ${s.name}`}
                      submitLabel="Salvar"
                      hidden={{ type: "updateSubject", subjectId: s.id }}
                      fields={[
                        { name: "name", label: "Nome", defaultValue: s.name, required: true },
                        { name: "code", label: "Código", defaultValue: s.code ?? "" },
                      ]}
                    />
                  </div>
                </details>
                {s.assignmentCount === 0 ? (
                  <ConfirmAction action={action} hidden={{ type: "deleteSubject", subjectId: s.id }} label="Excluir" ariaLabel={`Excluir disciplina ${s.name}`} question="Excluir a disciplina?" danger />
                ) : (
                  <span className="text-xs text-slate-500">Tem professores atribuídos</span>
                )}
              </div>,
            ],
          }))}
        />
        <Pagination basePath={basePath} params={{ q: query.q }} page={result.page} pageCount={result.pageCount} total={result.total} noun={["disciplina", "disciplinas"]} />
      </section>
      <section aria-labelledby="new-subject-title" className={card}>
        <h2 id="new-subject-title" className={sectionTitle}>Nova disciplina</h2>
        <div className="mt-3">
          <ActionForm
            action={action}
            ariaLabel="Nova disciplina"
            submitLabel="Criar disciplina"
            resetOnSuccess
            columns={2}
            hidden={{ type: "createSubject", institutionId: institution.id }}
            fields={[
              { name: "name", label: "Nome", required: true },
              { name: "code", label: "Código", hint: "Opcional, para relatórios da escola." },
            ]}
          />
        </div>
      </section>
    </div>
  );
}
