import type { Metadata } from "next";
import { ImportRunner } from "@/components/management/import-runner";
import { card, sectionTitle } from "@/components/management/styles";
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
      <ImportRunner institutionId={institution.id} kinds={IMPORT_KINDS.map((kind) => ({ kind, label: IMPORT_KIND_LABEL[kind], columns: IMPORT_COLUMNS[kind] }))} />
    </section>
  );
}
