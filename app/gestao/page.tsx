import type { Metadata } from "next";
import { ActionForm } from "@/components/management/action-form";
import { InstitutionTree } from "@/components/management/institution-tree";
import { KIND_LABEL } from "@/components/management/labels";
import { card, sectionTitle } from "@/components/management/styles";
import { requireManagerPage } from "@/lib/server/management/require-manager-page";
import { createInstitutionAction } from "./actions";

export const metadata: Metadata = { title: "Gestão" };

export default async function ManagementHome() {
  const { scope, institution } = await requireManagerPage({ returnTo: "/gestao" });
  return (
    <div className="space-y-8">
      <header>
        <p className="text-sm font-medium text-brand-700">Gestão</p>
        <h1 className="text-2xl font-bold">{institution.name}</h1>
        <p className="mt-1 text-slate-600">
          {institution.kind === "network"
            ? `Você gerencia esta rede e as ${scope.institutions.length - 1} unidades abaixo dela.`
            : "Você gerencia esta escola."}{" "}
          Escolha uma instituição para cuidar dos dados escolares, dos aplicativos parceiros e das ferramentas.
        </p>
      </header>
      <section aria-labelledby="tree-title" className="space-y-3">
        <h2 id="tree-title" className={sectionTitle}>Instituições</h2>
        <InstitutionTree institutions={scope.institutions} />
      </section>
      <section aria-labelledby="new-unit-title" className={card}>
        <h2 id="new-unit-title" className={sectionTitle}>Nova unidade</h2>
        <p className="mb-4 mt-1 text-sm text-slate-600">Crie uma escola ou sub-rede abaixo de uma instituição que você gerencia. Ela herda os vínculos com edtechs da instituição superior.</p>
        <ActionForm
          action={createInstitutionAction}
          ariaLabel="Nova unidade"
          submitLabel="Criar unidade"
          resetOnSuccess
          columns={2}
          fields={[
            { name: "name", label: "Nome", required: true, placeholder: "EMEF ..." },
            { name: "kind", label: "Tipo", type: "select", defaultValue: "school", options: [{ value: "school", label: KIND_LABEL.school }, { value: "network", label: KIND_LABEL.network }] },
            {
              name: "parentId",
              label: "Fica abaixo de",
              type: "select",
              span: 2,
              defaultValue: scope.rootId,
              options: scope.institutions.map((i) => ({ value: i.id, label: `${"— ".repeat(i.depth)}${i.name}` })),
            },
          ]}
        />
      </section>
    </div>
  );
}
