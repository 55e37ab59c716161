import type { Metadata } from "next";
import { ImportRunner } from "@/components/management/import-runner";
import { card, secondaryButton, sectionTitle } from "@/components/management/styles";
import { ONEROSTER_IMPORT_KIND } from "@/lib/server/management/oneroster-import/import-oneroster";
import { requireManagerSection } from "@/lib/server/management/require-manager-page";
import { IMPORT_COLUMNS, IMPORT_KINDS, IMPORT_KIND_LABEL, IMPORT_MAX_ROWS } from "@/lib/validations/management";

export const metadata: Metadata = { title: "Importar CSV" };

type Props = { params: Promise<{ institutionId: string }> };

export default async function ImportPage({ params }: Props) {
  const { institution } = await requireManagerSection(params, "importar");
  return (
    <section aria-labelledby="import-title" className={card}>
      <h2 id="import-title" className={sectionTitle}>Importar dados de uma planilha</h2>
      <p className="mb-5 mt-1 text-sm text-slate-600">
        O arquivo inteiro é verificado antes de gravar qualquer coisa: se uma linha tiver problema, nada é importado e todas as linhas com problema
        aparecem com o motivo. Até {IMPORT_MAX_ROWS.toLocaleString("pt-BR")} linhas por arquivo. Importe na ordem: períodos, disciplinas, turmas,
        pessoas e, por fim, matrículas, professores e responsáveis.
      </p>
      <ImportRunner
        institutionId={institution.id}
        kinds={[
          ...IMPORT_KINDS.map((kind) => ({ kind, label: IMPORT_KIND_LABEL[kind], columns: IMPORT_COLUMNS[kind] })),
          { kind: ONEROSTER_IMPORT_KIND, label: "OneRoster 1.2 (zip)", columns: [] },
        ]}
      />
      <div className="mt-8 border-t border-slate-200 pt-5">
        <h3 className="font-semibold">OneRoster 1.2</h3>
        <p className="mt-1 text-sm text-slate-600">
          Baixe os dados desta instituição e das que estão abaixo dela no formato CSV do OneRoster 1.2, com os identificadores do Hub. Importar esse
          mesmo arquivo não muda nada; edite-o numa planilha e importe-o de volta para fazer mudanças em massa.
        </p>
        <a href={`/gestao/${institution.id}/importar/oneroster`} download className={`${secondaryButton} mt-3 inline-block`}>
          Exportar OneRoster 1.2 (zip)
        </a>
      </div>
    </section>
  );
}
