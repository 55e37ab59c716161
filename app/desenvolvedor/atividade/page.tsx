import type { Metadata } from "next";
import { listAuditEntries } from "@/lib/server/developer/list-audit-entries";
import { requireDeveloper } from "@/lib/server/developer/require-developer";

export const metadata: Metadata = { title: "Atividade" };

const ACTION_LABEL: Record<string, string> = {
  "tool.create": "cadastrou a ferramenta",
  "tool.update": "alterou a ferramenta",
  "tool.withdraw": "retirou da galeria a ferramenta",
  "tool.reactivate": "reativou a ferramenta",
  "tool.launch_test": "testou o lançamento da ferramenta",
  "application.create": "criou a aplicação",
  "application.update": "alterou a aplicação",
  "application.rotate_secret": "gerou novo client_secret da aplicação",
  "application.delete": "excluiu a aplicação",
  "api_key.create": "criou uma chave da API",
  "api_key.revoke": "revogou uma chave da API",
};

/** What the audit row says, in a few words (names and prefixes only: rows never hold secrets). */
function summary(details: unknown): string {
  if (!details || typeof details !== "object") return "";
  const d = details as Record<string, unknown>;
  const parts: string[] = [];
  if (typeof d.title === "string") parts.push(d.title);
  if (typeof d.name === "string" && d.name) parts.push(d.name);
  if (typeof d.prefix === "string") parts.push(`${d.prefix}…`);
  if (Array.isArray(d.changed) && d.changed.length) parts.push(`campos: ${d.changed.join(", ")}`);
  if (typeof d.passed === "boolean") parts.push(d.passed ? "todos os casos passaram" : `falharam: ${Array.isArray(d.failedCases) ? d.failedCases.join(", ") : "?"}`);
  return parts.join(" · ");
}

export default async function DeveloperActivityPage() {
  const developer = await requireDeveloper("/desenvolvedor/atividade");
  const entries = await listAuditEntries({ personId: developer.personId, limit: 200 });
  return (
    <section>
      <h1 className="text-2xl font-bold">Atividade</h1>
      <p className="mt-1 mb-6 text-slate-600">Quem fez o quê, e quando, nas ferramentas, aplicações e chaves da sua edtech. Segredos nunca são registrados.</p>
      {entries.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">Nenhuma atividade registrada.</p>
      ) : (
        <ol className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm" aria-label="Registro de atividade">
          {entries.map((e) => (
            <li key={e.id} className="px-4 py-3 text-sm">
              <time dateTime={e.createdAt.toISOString()} className="block text-xs text-slate-500">{e.createdAt.toLocaleString("pt-BR")}</time>
              <span className="font-medium">{e.actorName ?? "Alguém"}</span> {ACTION_LABEL[e.action] ?? e.action}
              {summary(e.details) && <span className="text-slate-600"> — {summary(e.details)}</span>}
              {developer.edtechs.length > 1 && <span className="block text-xs text-slate-500">{e.edtechName}</span>}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
