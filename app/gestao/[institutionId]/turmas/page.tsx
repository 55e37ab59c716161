import type { Metadata } from "next";
import Link from "@/components/link";
import { DataTable } from "@/components/data-table";
import { SHIFT_LABEL, SHIFT_OPTIONS } from "@/components/management/labels";
import { createForm, FormSection, ListSection } from "@/components/management/page-sections";
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
      <ListSection
        id="classes"
        title="Turmas"
        basePath={basePath}
        filter={{ q: query.q, searchLabel: "Buscar turma", placeholder: "Nome da turma", selects: [{ name: "periodo", label: "Período", value: query.periodo, options: periods.map((p) => ({ value: p.code, label: p.code })) }] }}
        pages={{ ...result, params: { q: query.q, periodo: query.periodo }, noun: ["turma", "turmas"] }}
      >
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
      </ListSection>
      <FormSection id="new-class" title="Nova turma" form={periods[0] && {
          ...createForm(schoolDataAction.bind(null, institution.id), "createClass"), submitLabel: "Criar turma",
          fields: [
            { name: "periodId", label: "Período", type: "select", required: true, defaultValue: periods[0].id, options: periods.map((p) => ({ value: p.id, label: `${p.code} — ${p.name}` })) },
            { name: "name", label: "Nome da turma", required: true, placeholder: "7º ano C" },
            { name: "grade", label: "Série", placeholder: "7º ano" },
            { name: "shift", label: "Turno", type: "select", defaultValue: "", options: SHIFT_OPTIONS },
          ],
        }}
      >
        {periods.length === 0 && (
          <p className="text-sm text-slate-600">
            Cadastre um <Link href={`/gestao/${institution.id}/periodos`} className="text-brand-700 underline">período letivo</Link> antes de criar turmas.
          </p>
        )}
      </FormSection>
    </div>
  );
}
