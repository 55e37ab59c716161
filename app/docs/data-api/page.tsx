import type { Metadata } from "next";
import Link from "@/components/link";
import { buildDataApiOpenApi } from "@/lib/server/data-api/openapi";

export const metadata: Metadata = { title: "Referência da Data API" };

interface TParameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  example?: unknown;
}
interface TOperation {
  summary?: string;
  description?: string;
  parameters?: TParameter[];
  responses: Record<string, { description?: string }>;
}

/** The Data API reference, rendered from the same OpenAPI document as docs/api/ (never drifts). */
export default function DataApiReferencePage() {
  const doc = buildDataApiOpenApi() as unknown as { info: { title: string; description: string }; paths: Record<string, Record<string, TOperation>> };
  return (
    <article className="space-y-10">
      <header>
        <h1 className="text-3xl font-bold">{doc.info.title}</h1>
        <p className="mt-2 max-w-3xl text-slate-600">{doc.info.description}</p>
        <p className="mt-2 text-sm text-slate-600">
          Toda chamada leva o cabeçalho <code className="rounded bg-slate-100 px-1">x-api-key</code>. Documento OpenAPI 3.1:{" "}
          <code className="rounded bg-slate-100 px-1">docs/api/data-api.openapi.json</code>. Chaves: <Link href="/desenvolvedor" className="underline">área do desenvolvedor</Link>.
        </p>
      </header>
      {Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.entries(methods).map(([method, op]) => (
          <section key={`${method} ${path}`} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6">
            <h2 className="break-all font-mono text-lg font-semibold">
              <span className="mr-2 rounded bg-brand-100 px-2 py-0.5 text-brand-900">{method.toUpperCase()}</span>
              {path}
            </h2>
            {op.summary && <p className="mt-1 font-medium">{op.summary}</p>}
            {op.description && <p className="mt-2 whitespace-pre-line text-sm text-slate-600">{op.description}</p>}
            <h3 className="mt-5 font-semibold">Parâmetros</h3>
            {/* One block per parameter, name and facts above the description: a four-column table
                needed 491 px and scrolled sideways on a 390 px phone. */}
            <dl className="mt-2 divide-y divide-slate-100 text-sm">
              {(op.parameters ?? []).map((p) => (
                <div key={p.name} className="py-2 sm:grid sm:grid-cols-[12rem_1fr] sm:gap-4">
                  <dt>
                    <span className="break-all font-mono font-semibold">{p.name}</span>
                    <span className="block text-xs text-slate-500">
                      {p.in} · {p.required ? "obrigatório" : "opcional"}
                    </span>
                  </dt>
                  <dd className="mt-1 sm:mt-0">
                    {p.description}
                    {p.example !== undefined && <span className="block break-all font-mono text-xs text-slate-500">ex.: {String(p.example)}</span>}
                  </dd>
                </div>
              ))}
            </dl>
            <h3 className="mt-5 font-semibold">Respostas</h3>
            <ul className="mt-2 space-y-1 text-sm">
              {Object.entries(op.responses).map(([status, r]) => (
                <li key={status}><span className="mr-2 font-mono font-semibold">{status}</span>{r.description}</li>
              ))}
            </ul>
          </section>
        )),
      )}
    </article>
  );
}
