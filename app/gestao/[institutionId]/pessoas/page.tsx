import type { Metadata } from "next";
import Link from "@/components/link";
import { DataTable } from "@/components/data-table";
import { formatCpf, formatDay, ROLE_OPTIONS } from "@/components/management/labels";
import { createForm, FormSection, ListSection } from "@/components/management/page-sections";
import { ROLE_LABEL } from "@/lib/labels";
import { listPeople } from "@/lib/server/management/list-people";
import { requireManagerSection } from "@/lib/server/management/require-manager-page";
import { ZPeopleQuerySchema } from "@/lib/validations/management";
import { schoolDataAction } from "../actions";

export const metadata: Metadata = { title: "Pessoas" };

type Props = { params: Promise<{ institutionId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function PeoplePage({ params, searchParams }: Props) {
  const query = ZPeopleQuerySchema.parse(await searchParams);
  const { scope, institution, basePath } = await requireManagerSection(params, "pessoas");
  const result = await listPeople({ scope, institutionId: institution.id, q: query.q, role: query.role, page: query.page });
  return (
    <div className="space-y-6">
      <ListSection
        id="people"
        title="Pessoas"
        basePath={basePath}
        filter={{ q: query.q, searchLabel: "Buscar pessoa", placeholder: "Nome, e-mail ou CPF", selects: [{ name: "role", label: "Perfil", value: query.role, options: ROLE_OPTIONS }] }}
        pages={{ ...result, params: { q: query.q, role: query.role }, noun: ["pessoa", "pessoas"] }}
      >
        <DataTable
          caption="Pessoas da instituição"
          headers={["Nome", "Perfil", "CPF", "E-mail", "Celular", "Nascimento"]}
          empty={query.q || query.role ? <p>Ninguém encontrado com esses filtros.</p> : <p>Ninguém cadastrado ainda. Cadastre abaixo ou importe um arquivo CSV.</p>}
          rows={result.items.map((p) => ({
            key: p.profileId,
            cells: [
              <Link key="n" href={`${basePath}/${p.profileId}`} className="font-medium text-brand-700 hover:underline">{p.name}</Link>,
              ROLE_LABEL[p.role],
              formatCpf(p.cpf),
              p.email ?? "—",
              p.phone ?? "—",
              formatDay(p.birthDate),
            ],
          }))}
        />
      </ListSection>
      <FormSection
        id="new-person"
        title="Cadastrar pessoa"
        intro="Cria a identidade no Hub e o perfil nesta instituição. Para matricular um aluno, abra a turma depois."
        form={{
          ...createForm(schoolDataAction.bind(null, institution.id), "createPerson", institution.id), submitLabel: "Cadastrar",
          fields: [
            { name: "name", label: "Nome completo", required: true, span: 2 },
            { name: "role", label: "Perfil", type: "select", defaultValue: "aluno", options: ROLE_OPTIONS },
            { name: "cpf", label: "CPF", placeholder: "000.000.000-00" },
            { name: "email", label: "E-mail", type: "email" },
            { name: "phone", label: "Celular", type: "tel", placeholder: "(11) 99999-0000" },
            { name: "birthDate", label: "Data de nascimento", type: "date" },
            { name: "password", label: "Senha inicial", type: "password", autoComplete: "new-password", hint: "Opcional: sem senha, a pessoa ainda não entra no Hub." },
          ],
        }}
      />
    </div>
  );
}
