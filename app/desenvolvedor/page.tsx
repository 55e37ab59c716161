import type { Metadata } from "next";
import Link from "@/components/link";
import { ToolLogo } from "@/components/tool-logo";
import { getDeveloperOverview } from "@/lib/server/developer/get-developer-overview";
import { requireDeveloper } from "@/lib/server/developer/require-developer";

export const metadata: Metadata = { title: "Visão geral" };

export default async function DeveloperHomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const developer = await requireDeveloper("/desenvolvedor");
  const [edtechs, params] = await Promise.all([getDeveloperOverview({ personId: developer.personId }), searchParams]);
  return (
    <section className="space-y-10">
      <header>
        <h1 className="text-2xl font-bold">Área do desenvolvedor</h1>
        <p className="mt-1 text-slate-600">Cadastre ferramentas e aplicações, gerencie chaves da API de dados e teste o seu endpoint de lançamento.</p>
        {params.excluida !== undefined && (
          <p role="status" className="mt-4 rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">Aplicação excluída.</p>
        )}
      </header>
      {edtechs.map((edtech) => (
        <article key={edtech.id} aria-labelledby={`edtech-${edtech.id}`} className="space-y-8">
          {edtechs.length > 1 && (
            <h2 id={`edtech-${edtech.id}`} className="text-xl font-semibold">{edtech.name}</h2>
          )}
          {edtechs.length === 1 && <h2 id={`edtech-${edtech.id}`} className="sr-only">{edtech.name}</h2>}

          <section aria-labelledby={`tools-${edtech.id}`}>
            <div className="flex items-end justify-between gap-3">
              <div>
                <h3 id={`tools-${edtech.id}`} className="text-lg font-semibold">Ferramentas</h3>
                <p className="text-sm text-slate-600">Entradas da galeria com as credenciais de lançamento LTI 1.0.</p>
              </div>
              <Link href="/desenvolvedor/ferramentas/nova" className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700">
                Nova ferramenta
              </Link>
            </div>
            {edtech.tools.length === 0 ? (
              <p className="mt-4 rounded-xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">Nenhuma ferramenta cadastrada ainda.</p>
            ) : (
              <ul className="mt-4 grid gap-3 md:grid-cols-2" aria-label={`Ferramentas de ${edtech.name}`}>
                {edtech.tools.map((tool) => (
                  <li key={tool.id} className="flex gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
                    <ToolLogo src={tool.logoUrl} title={tool.title} />
                    <div className="min-w-0 flex-1">
                      <p className="flex flex-wrap items-center gap-2">
                        <Link href={`/desenvolvedor/ferramentas/${tool.id}`} className="font-semibold hover:underline">{tool.title}</Link>
                        {tool.status === "withdrawn" && <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-medium text-slate-700">Retirada</span>}
                      </p>
                      <p className="truncate font-mono text-xs text-slate-500">{tool.launchUrl}</p>
                      <p className="mt-1 text-xs text-slate-500">{tool.placements === 1 ? "1 colocação em escolas" : `${tool.placements} colocações em escolas`}</p>
                      <p className="mt-2 flex gap-4 text-sm">
                        <Link href={`/desenvolvedor/ferramentas/${tool.id}`} className="font-medium text-brand-700 hover:underline" aria-label={`Editar ${tool.title}`}>Editar</Link>
                        <Link href={`/desenvolvedor/ferramentas/${tool.id}/testar`} className="font-medium text-brand-700 hover:underline" aria-label={`Testar lançamento de ${tool.title}`}>
                          Testar lançamento
                        </Link>
                      </p>
                    </div>
                  </li>
                ))}
              </ul>
            )}
          </section>

          <section aria-labelledby={`apps-${edtech.id}`}>
            <div className="flex items-end justify-between gap-3">
              <div>
                <h3 id={`apps-${edtech.id}`} className="text-lg font-semibold">Aplicações OAuth 2</h3>
                <p className="text-sm text-slate-600">Login com o Hub e acesso à API de dados escolares.</p>
              </div>
              <Link href="/desenvolvedor/aplicacoes/nova" className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700">
                Nova aplicação
              </Link>
            </div>
            {edtech.applications.length === 0 ? (
              <p className="mt-4 rounded-xl border border-dashed border-slate-300 p-6 text-center text-sm text-slate-600">Nenhuma aplicação cadastrada ainda.</p>
            ) : (
              <ul className="mt-4 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm" aria-label={`Aplicações de ${edtech.name}`}>
                {edtech.applications.map((app) => (
                  <li key={app.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3">
                    <div>
                      <Link href={`/desenvolvedor/aplicacoes/${app.id}`} className="font-semibold hover:underline">{app.name}</Link>
                      <p className="font-mono text-xs text-slate-500">client_id: {app.clientId}</p>
                    </div>
                    <span className="text-xs text-slate-500">{app.activeKeys === 1 ? "1 chave ativa" : `${app.activeKeys} chaves ativas`}</span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </article>
      ))}
    </section>
  );
}
