import type { Metadata } from "next";
import Link from "next/link";
import { ActionForm } from "@/components/management/action-form";
import { DataTable } from "@/components/data-table";
import { FilterForm } from "@/components/management/filter-form";
import { SHIFT_LABEL, SHIFT_OPTIONS } from "@/components/management/labels";
import { Pagination } from "@/components/management/pagination";
import { FormSection, ListSection } from "@/components/management/page-sections";
import { listClasses } from "@/lib/server/management/list-classes";
import { listPeriods } from "@/lib/server/management/list-periods";
import { requireManagerSection } from "@/lib/server/management/require-manager-page";
import { ZClassesQuerySchema } from "@/lib/validations/management";
import { schoolDataAction } from "../actions";

export const metadata: Metadata = { title: "Turmas" };

type Props = { params: Promise<{ institutionId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function ClassesPage({ params, searchParams }: Props) {
  const query = ZClassesQuerySchema.parse(await searchParams);
  const { scope, institution, basePath } = await requireManagerSection(params, "turmas");
  const [result, periods] = await Promise.all([
    listClasses({ scope, institutionId: institution.id, q: query.q, periodCode: query.periodo, page: query.page }),
    listPeriods({ scope, institutionId: institution.id }),
  ]);
  return (
    <div className="space-y-6">
      <ListSection id="classes" title="Turmas">
        <FilterForm
          basePath={basePath}
          q={query.q}
          searchLabel="Buscar turma"
          placeholder="Nome da turma"
          selects={[{ name: "periodo", label: "Período", value: query.periodo, options: periods.map((p) => ({ value: p.code, label: p.code })) }]}
        />
        <DataTable
          caption="Turmas"
          headers={["Turma", "Período", "Série", "Turno", "Alunos", "Professores"]}
          empty={
            query.q || query.periodo ? <p>Nenhuma turma com esses filtros.</p> : <p>Nenhuma turma cadastrada. Crie a primeira abaixo ou importe um CSV.</p>
          }
          rows={result.items.map((c) => ({
            key: c.id,
            cells: [
              <Link key="n" href={`${basePath}/${c.id}`} className="font-medium text-brand-700 hover:underline">{c.name}</Link>,
              c.periodCode,
              c.grade ?? "—",
              c.shift ? (SHIFT_LABEL[c.shift] ?? c.shift) : "—",
              c.studentCount,
              c.teacherCount,
            ],
          }))}
        />
        <Pagination basePath={basePath} params={{ q: query.q, periodo: query.periodo }} page={result.page} pageCount={result.pageCount} total={result.total} noun={["turma", "turmas"]} />
      </ListSection>
      <FormSection id="new-class" title="Nova turma">
        {periods.length === 0 ? (
          <p className="text-sm text-slate-600">
            Cadastre um <Link href={`/gestao/${institution.id}/periodos`} className="text-brand-700 hover:underline">período letivo</Link> antes de criar turmas.
          </p>
        ) : (
          <ActionForm
            action={schoolDataAction.bind(null, institution.id)}
            ariaLabel="Nova turma"
            submitLabel="Criar turma"
            resetOnSuccess
            columns={2}
            hidden={{ type: "createClass" }}
            fields={[
              { name: "periodId", label: "Período", type: "select", required: true, defaultValue: periods[0]!.id, options: periods.map((p) => ({ value: p.id, label: `${p.code} — ${p.name}` })) },
              { name: "name", label: "Nome da turma", required: true, placeholder: "7º ano C" },
              { name: "grade", label: "Série", placeholder: "7º ano" },
              { name: "shift", label: "Turno", type: "select", defaultValue: "", options: SHIFT_OPTIONS },
            ]}
          />
        )}
      </FormSection>
    </div>
  );
}
