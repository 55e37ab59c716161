import { DataTable } from "@/components/data-table";
import type { TLaunchTestReport } from "@/lib/server/developer/launch-test/run-launch-test";

const EXPECTED_LABEL = { accept: "Aceitar (2xx ou 3xx)", refuse: "Recusar (401)" } as const;

/** The tester's report: one row per case with what was expected, what the tool answered, and the verdict. */
export function LaunchTestReport({ report }: { report: TLaunchTestReport }) {
  const failed = report.cases.filter((c) => !c.passed).length;
  const validFailed = report.cases.some((c) => c.id === "valid" && !c.passed);
  return (
    <section aria-labelledby="launch-report-title" className="space-y-4">
      <div className={`rounded-lg border p-4 ${report.passed ? "border-emerald-200 bg-emerald-50" : "border-red-200 bg-red-50"}`}>
        <h2 id="launch-report-title" className={`text-lg font-semibold ${report.passed ? "text-emerald-800" : "text-red-800"}`}>
          {report.passed ? "Todos os casos passaram" : `${failed} de ${report.cases.length} casos falharam`}
        </h2>
        <p className="mt-1 break-all text-sm text-slate-700">
          Enviado para <span className="font-mono">{report.launchUrl}</span> em {new Date(report.ranAt).toLocaleString("pt-BR")}.
        </p>
        {validFailed && (
          <p className="mt-2 text-sm text-red-800">
            O lançamento válido não foi aceito: enquanto ele falhar, casos negativos que “passaram” podem estar passando só porque a ferramenta recusa tudo.
          </p>
        )}
      </div>
      <DataTable
        caption="Resultado por caso"
        headers={["Caso", "Esperado", "Resposta", "Resultado"]}
        rowHeader
        empty="Nenhum caso executado."
        rows={report.cases.map((c) => ({
          key: c.id,
          data: { "data-case": c.id, "data-passed": c.passed ? "true" : "false" },
          cells: [
            <>
              <span className="font-medium">{c.label}</span>
              <span className="block text-xs text-slate-500">{c.description}</span>
            </>,
            EXPECTED_LABEL[c.expected],
            <span key="status" className="font-mono">{c.status === null ? "sem resposta" : `HTTP ${c.status}`}</span>,
            <>
              <span className={`inline-block rounded-full px-2 py-0.5 text-xs font-semibold ${c.passed ? "bg-emerald-100 text-emerald-800" : "bg-red-100 text-red-800"}`}>
                {c.passed ? "Passou" : "Falhou"}
              </span>
              {c.note && <span className="mt-1 block text-xs text-slate-600">{c.note}</span>}
            </>,
          ],
        }))}
      />
    </section>
  );
}
