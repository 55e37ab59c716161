import type { Metadata } from "next";
import Link from "@/components/link";
import { notFound } from "next/navigation";
import { ToolCardPreview } from "@/components/developer/tool-card-preview";
import { ToolForm } from "@/components/developer/tool-form";
import { ToolStatusForm } from "@/components/developer/tool-status-form";
import { getDeveloperTool } from "@/lib/server/developer/get-developer-tool";
import { requireDeveloper } from "@/lib/server/developer/require-developer";
import { Lti13Section } from "@/components/developer/lti13-section";
import { getLti13Registration } from "@/lib/server/lti13/lti13-registration";
import { removeLti13Action, saveLti13Action, setToolStatusAction, updateToolAction } from "../actions";

type Props = { params: Promise<{ toolId: string }> };

export const metadata: Metadata = { title: "Ferramenta" };

export default async function DeveloperToolPage({ params }: Props) {
  const { toolId } = await params;
  const developer = await requireDeveloper(`/desenvolvedor/ferramentas/${encodeURIComponent(toolId)}`);
  // Another edtech's tool is "not found", exactly like an unknown id.
  const tool = await getDeveloperTool({ personId: developer.personId, toolId });
  if (!tool) notFound();
  const lti13 = await getLti13Registration({ personId: developer.personId, toolId: tool.id });
  return (
    <section className="space-y-10">
      <div>
        <Link href="/desenvolvedor" className="text-sm font-medium text-brand-700 hover:underline">← Visão geral</Link>
        <div className="mt-3 flex flex-wrap items-center gap-3">
          <h1 className="text-2xl font-bold">{tool.title}</h1>
          <span className={`rounded-full px-2.5 py-0.5 text-xs font-semibold ${tool.status === "active" ? "bg-emerald-100 text-emerald-800" : "bg-slate-200 text-slate-700"}`}>
            {tool.status === "active" ? "Ativa na galeria" : "Retirada da galeria"}
          </span>
        </div>
        <p className="mt-1 text-sm text-slate-600">{tool.edtechName} · atualizada em {tool.updatedAt.toLocaleString("pt-BR")}</p>
      </div>

      <section aria-labelledby="card-title" className="grid gap-6 md:grid-cols-[20rem_1fr]">
        <div>
          <h2 id="card-title" className="mb-3 text-lg font-semibold">Como aparece na galeria</h2>
          <ToolCardPreview title={tool.title} shortDescription={tool.shortDescription} logoUrl={tool.logoUrl} />
        </div>
        <dl className="grid content-start gap-3 text-sm">
          <div>
            <dt className="font-medium">Endereço de lançamento</dt>
            <dd className="break-all font-mono text-slate-700">{tool.launchUrl}</dd>
          </div>
          <div>
            <dt className="font-medium">Consumer key</dt>
            <dd className="break-all font-mono text-slate-700">{tool.consumerKey}</dd>
          </div>
          <div>
            <dt className="font-medium">Segredo compartilhado</dt>
            <dd className="text-slate-700">Guardado criptografado; não é exibido. Substitua-o no formulário abaixo.</dd>
          </div>
        </dl>
        <div className="pt-2">
          <Link href={`/desenvolvedor/ferramentas/${tool.id}/testar`} className="inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
            Testar lançamento
          </Link>
        </div>
      </section>

      <section aria-labelledby="edit-title">
        <h2 id="edit-title" className="mb-4 text-lg font-semibold">Editar</h2>
        <ToolForm
          mode="edit"
          action={updateToolAction}
          toolId={tool.id}
          currentLogoUrl={tool.logoUrl}
          initial={{
            title: tool.title,
            shortDescription: tool.shortDescription,
            longDescription: tool.longDescription,
            siteUrl: tool.siteUrl,
            launchUrl: tool.launchUrl,
            consumerKey: tool.consumerKey,
          }}
        />
      </section>

      <Lti13Section toolId={tool.id} registration={lti13} saveAction={saveLti13Action} removeAction={removeLti13Action} />

      <section aria-labelledby="status-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <h2 id="status-title" className="text-lg font-semibold">{tool.status === "active" ? "Retirar da galeria" : "Reativar"}</h2>
        <p className="mt-1 mb-4 text-sm text-slate-600">
          {tool.status === "active"
            ? "A ferramenta some da galeria de todas as escolas e não pode mais ser aberta. As colocações e configurações das escolas são mantidas para quando ela voltar."
            : "A ferramenta volta à galeria das escolas que já a tinham colocado."}
        </p>
        <ToolStatusForm action={setToolStatusAction} toolId={tool.id} status={tool.status} />
      </section>
    </section>
  );
}
