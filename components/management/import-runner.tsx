"use client";
import { useId, useRef, useState } from "react";
import type { TImportMessage } from "@/lib/server/management/stream-import";
import type { TImportColumn, TImportKind } from "@/lib/validations/management";
import { inputClass, primaryButton, secondaryButton } from "./styles";

type Phase =
  | { step: "idle" }
  | { step: "working"; label: string; done: number; total: number }
  | { step: "checked"; total: number }
  | { step: "invalid"; total: number; fileErrors: string[]; rowErrors: { file?: string; line: number; messages: string[] }[] }
  | { step: "imported"; imported: number }
  | { step: "failed"; message: string };

/** Reads the NDJSON answer of the import route line by line, as it arrives. */
async function readLines(response: Response, onMessage: (m: TImportMessage) => void): Promise<void> {
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    buffer += decoder.decode(value, { stream: !done });
    let nl: number;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line) onMessage(JSON.parse(line) as TImportMessage);
    }
    if (done) return;
  }
}

/**
 * CSV import in two steps: "Verificar" checks the whole file (nothing is written) and lists every
 * bad row; "Importar" writes everything in one transaction with a progress bar.
 */
/** A spreadsheet kind, or a OneRoster 1.2 CSV zip (several files, a manifest: no column list of its own). */
type TRunnerKind = TImportKind | "oneroster";

export function ImportRunner(props: { institutionId: string; kinds: { kind: TRunnerKind; label: string; columns: TImportColumn[] }[] }) {
  const id = useId();
  const [kind, setKind] = useState<TRunnerKind>(props.kinds[0]!.kind);
  const zip = kind === "oneroster";
  const [file, setFile] = useState<File | null>(null);
  const [phase, setPhase] = useState<Phase>({ step: "idle" });
  const fileInput = useRef<HTMLInputElement>(null);
  const spec = props.kinds.find((k) => k.kind === kind)!;
  const template = `data:text/csv;charset=utf-8,${encodeURIComponent(`\ufeff${spec.columns.map((c) => c.name).join(";")}\r\n${spec.columns.map((c) => c.example).join(";")}\r\n`)}`;

  async function send(validateOnly: boolean) {
    if (!file) {
      setPhase({ step: "failed", message: zip ? "Escolha o arquivo .zip do OneRoster." : "Escolha um arquivo CSV." });
      return;
    }
    setPhase({ step: "working", label: "Lendo o arquivo", done: 0, total: 0 });
    try {
      const body = zip ? file : await file.text();
      const response = await fetch(`/gestao/${props.institutionId}/importar/executar?tipo=${kind}${validateOnly ? "&validar=1" : ""}`, {
        method: "POST",
        headers: { "Content-Type": zip ? "application/zip" : "text/csv; charset=utf-8" },
        body,
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        setPhase({ step: "failed", message: body.message ?? "Não foi possível enviar o arquivo." });
        return;
      }
      await readLines(response, (m) => {
        if (m.type === "progress") setPhase({ step: "working", label: m.phase === "validando" ? "Verificando" : "Importando", done: m.done, total: m.total });
        else if (m.type === "error") setPhase({ step: "failed", message: m.message });
        else if (!m.ok) setPhase({ step: "invalid", total: m.total, fileErrors: m.fileErrors, rowErrors: m.rowErrors });
        else setPhase(validateOnly ? { step: "checked", total: m.total } : { step: "imported", imported: m.imported });
      });
    } catch {
      setPhase({ step: "failed", message: "A conexão caiu durante o envio. Nada foi importado; tente novamente." });
    }
  }

  const busy = phase.step === "working";
  return (
    <div className="space-y-5">
      <div className="grid gap-4 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-kind`} className="mb-1 block text-sm font-medium">Tipo de arquivo</label>
          <select
            id={`${id}-kind`}
            value={kind}
            disabled={busy}
            onChange={(e) => {
              setKind(e.target.value as TRunnerKind);
              setPhase({ step: "idle" });
            }}
            className={inputClass}
          >
            {props.kinds.map((k) => (
              <option key={k.kind} value={k.kind}>{k.label}</option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${id}-file`} className="mb-1 block text-sm font-medium">{zip ? "Arquivo ZIP" : "Arquivo CSV"}</label>
          <input
            ref={fileInput}
            id={`${id}-file`}
            type="file"
            accept={zip ? ".zip,application/zip" : ".csv,text/csv,text/plain"}
            disabled={busy}
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setPhase({ step: "idle" });
            }}
            className="block w-full text-sm"
          />
        </div>
      </div>

      {zip ? (
        <details className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
          <summary className="cursor-pointer font-medium">Arquivos do pacote OneRoster 1.2</summary>
          <p className="mt-2">
            Um .zip com <code className="font-mono">manifest.csv</code> e os arquivos <code className="font-mono">orgs</code>,{" "}
            <code className="font-mono">academicSessions</code>, <code className="font-mono">courses</code>, <code className="font-mono">classes</code>,{" "}
            <code className="font-mono">users</code>, <code className="font-mono">roles</code>, <code className="font-mono">enrollments</code> e{" "}
            <code className="font-mono">demographics</code> (.csv) no formato OneRoster 1.2. O manifesto diz, por arquivo, se ele é completo (bulk: o que
            faltar é excluído) ou só de mudanças (delta). As instituições precisam já existir no Hub.
          </p>
        </details>
      ) : (
      <details className="rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
        <summary className="cursor-pointer font-medium">Colunas do arquivo ({spec.columns.filter((c) => c.required).length} obrigatórias)</summary>
        <ul className="mt-2 space-y-1">
          {spec.columns.map((c) => (
            <li key={c.name}>
              <code className="font-mono">{c.name}</code>
              {c.required && <span className="text-red-700"> (obrigatória)</span>} — {c.description}. Ex.: <span className="font-mono">{c.example}</span>
            </li>
          ))}
        </ul>
        <p className="mt-2 text-slate-600">Separador ponto e vírgula ou vírgula, codificação UTF-8, primeira linha com os nomes das colunas.</p>
        <a href={template} download={`modelo-${kind}.csv`} className="mt-2 inline-block font-medium text-brand-700 hover:underline">Baixar modelo</a>
      </details>
      )}

      <div className="flex flex-wrap gap-3">
        <button type="button" className={secondaryButton} disabled={busy || !file} onClick={() => send(true)}>Verificar arquivo</button>
        <button type="button" className={primaryButton} disabled={busy || !file} onClick={() => send(false)}>Importar</button>
      </div>

      <div aria-live="polite">
        {phase.step === "working" && (
          <div className="space-y-1">
            <label htmlFor={`${id}-progress`} className="text-sm font-medium">
              {phase.label}
              {phase.total > 0 && `: ${phase.done.toLocaleString("pt-BR")} de ${phase.total.toLocaleString("pt-BR")} linhas`}
            </label>
            <progress id={`${id}-progress`} className="h-3 w-full" max={phase.total || 1} value={phase.total ? phase.done : undefined} />
          </div>
        )}
        {phase.step === "checked" && (
          <p role="status" className="rounded-md bg-emerald-50 p-3 text-sm text-emerald-900">
            Arquivo válido: {phase.total.toLocaleString("pt-BR")} {phase.total === 1 ? "linha pronta" : "linhas prontas"} para importar. Nada foi gravado ainda.
          </p>
        )}
        {phase.step === "imported" && (
          <p role="status" className="rounded-md bg-emerald-50 p-3 text-sm font-medium text-emerald-900">
            Importação concluída: {phase.imported.toLocaleString("pt-BR")} {phase.imported === 1 ? "linha importada" : "linhas importadas"}.
          </p>
        )}
        {phase.step === "failed" && <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">{phase.message}</p>}
        {phase.step === "invalid" && (
          <div role="alert" className="space-y-3 rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-900">
            <p className="font-semibold">
              Nada foi importado.{" "}
              {phase.rowErrors.length > 0
                ? `${phase.rowErrors.length.toLocaleString("pt-BR")} de ${phase.total.toLocaleString("pt-BR")} linhas têm problemas; corrija-as e envie o arquivo de novo.`
                : "Corrija o arquivo e envie de novo."}
            </p>
            {phase.fileErrors.length > 0 && (
              <ul className="list-inside list-disc">
                {phase.fileErrors.map((e) => (
                  <li key={e}>{e}</li>
                ))}
              </ul>
            )}
            {phase.rowErrors.length > 0 && (
              <div tabIndex={0} role="group" aria-label="Linhas com problemas" className="max-h-96 overflow-auto rounded border border-red-200 bg-white">
                <table className="min-w-full text-left text-sm text-slate-800">
                  <caption className="sr-only">Linhas com problemas</caption>
                  <thead className="sticky top-0 bg-red-100 text-xs uppercase">
                    <tr>
                      <th scope="col" className="px-3 py-2">{phase.rowErrors.some((r) => r.file) ? "Arquivo e linha" : "Linha"}</th>
                      <th scope="col" className="px-3 py-2">Problemas</th>
                    </tr>
                  </thead>
                  <tbody className="divide-y divide-red-100">
                    {phase.rowErrors.map((r) => (
                      <tr key={`${r.file ?? ""}:${r.line}`}>
                        <td className="px-3 py-2 font-mono">{r.file ? `${r.file}, linha ${r.line}` : r.line}</td>
                        <td className="px-3 py-2">{r.messages.join("; ")}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </div>
        )}
      </div>
    </div>
  );
}
