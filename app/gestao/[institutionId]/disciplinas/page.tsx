import type { Metadata } from "next";
import { ActionForm } from "@/components/management/action-form";
import { ConfirmAction } from "@/components/management/confirm-action";
import { DataTable } from "@/components/data-table";
import { createForm, FormSection, ListSection, RowActions } from "@/components/management/page-sections";
import { listSubjects } from "@/lib/server/management/list-subjects";
import { requireManagerSection } from "@/lib/server/management/require-manager-page";
import { ZListQuerySchema } from "@/lib/validations/management";
import { schoolDataAction } from "../actions";

export const metadata: Metadata = { title: "Disciplinas" };

type Props = { params: Promise<{ institutionId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SubjectsPage({ params, searchParams }: Props) {
  const query = ZListQuerySchema.parse(await searchParams);
  const { scope, institution, basePath } = await requireManagerSection(params, "disciplinas");
  const result = await listSubjects({ scope, institutionId: institution.id, q: query.q, page: query.page });
  const action = schoolDataAction.bind(null, institution.id);
  return (
    <div className="space-y-6">
      <ListSection
        id="subjects"
        title="Disciplinas"
        basePath={basePath}
        filter={{ q: query.q, searchLabel: "Buscar disciplina", placeholder: "Nome ou código" }}
        pages={{ ...result, params: { q: query.q }, noun: ["disciplina", "disciplinas"] }}
      >
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
              <RowActions
                key="a"
                edit={
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
                }
                remove={s.assignmentCount === 0 ? <ConfirmAction action={action} hidden={{ type: "deleteSubject", subjectId: s.id }} label="Excluir" ariaLabel={`Excluir disciplina ${s.name}`} question="Excluir a disciplina?" danger /> : null}
                keptBecause="Tem professores atribuídos"
              />,
            ],
          }))}
        />
      </ListSection>
      <FormSection id="new-subject" title="Nova disciplina" form={{
          ...createForm(action, "createSubject", institution.id), submitLabel: "Criar disciplina",
          fields: [
            { name: "name", label: "Nome", required: true },
            { name: "code", label: "Código", hint: "Opcional, para relatórios da escola." },
          ],
        }}
      />
    </div>
  );
}
