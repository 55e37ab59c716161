import type { Metadata } from "next";
import Link from "@/components/link";
import { notFound } from "next/navigation";
import { ToolLogo } from "@/components/tool-logo";
import { getCurrentUser, requireProfile } from "@/lib/server/auth/current-user";
import { getGalleryTool } from "@/lib/server/gallery/get-gallery-tool";
import { listPickerClasses } from "@/lib/server/lti13/list-picker-classes";

type Props = { params: Promise<{ toolId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { toolId } = await params;
  const user = await getCurrentUser();
  if (!user?.profile) return { title: "Ferramenta" };
  const tool = await getGalleryTool({ profile: { id: user.profile.id, role: user.profile.role, institutionId: user.profile.institution.id }, toolId });
  return { title: tool?.title ?? "Ferramenta não encontrada" };
}

export default async function ToolDetailPage({ params }: Props) {
  const { toolId } = await params;
  const user = await requireProfile(`/ferramentas/${encodeURIComponent(toolId)}`);
  const tool = await getGalleryTool({ profile: { id: user.profile.id, role: user.profile.role, institutionId: user.profile.institution.id }, toolId });
  if (!tool) notFound();
  // LTI 1.3 Deep Linking (issue #21): a teacher can add the tool's content to a class they teach.
  const pickerClasses = await listPickerClasses({ toolId, profile: { id: user.profile.id, role: user.profile.role, institutionId: user.profile.institution.id } });
  const several = tool.placements.length > 1;
  return (
    <article className="mx-auto max-w-3xl">
      <Link href="/" className="text-sm font-medium text-brand-700 hover:underline">← Ferramentas</Link>
      <div className="mt-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm sm:p-8">
        <header className="flex items-start gap-5">
          <ToolLogo src={tool.logoUrl} title={tool.title} size="lg" />
          <div>
            <h1 className="text-2xl font-bold">{tool.title}</h1>
            <p className="mt-1 text-sm text-slate-600">por {tool.edtechName}</p>
            <p className="mt-2 text-slate-700">{tool.shortDescription}</p>
          </div>
        </header>
        <section className="mt-6 border-t border-slate-200 pt-6">
          <h2 className="sr-only">Sobre a ferramenta</h2>
          <p className="whitespace-pre-line leading-relaxed text-slate-800">{tool.longDescription}</p>
          {tool.siteUrl && (
            <p className="mt-4 text-sm">
              <a href={tool.siteUrl} target="_blank" rel="noopener noreferrer" className="font-medium text-brand-700 hover:underline">
                Site da ferramenta ↗
              </a>
            </p>
          )}
        </section>
        <section className="mt-6 border-t border-slate-200 pt-6">
          <h2 className="sr-only">Abrir</h2>
          {several && <p className="mb-3 text-sm text-slate-600">Esta ferramenta está disponível em mais de um lugar para você. Escolha qual abrir:</p>}
          <ul className="flex flex-wrap gap-3">
            {tool.placements.map((p) => (
              <li key={p.placementId}>
                {/* A plain link: /launch answers with a page that posts the signed launch to the tool. */}
                <a href={`/launch/${p.placementId}`} className="inline-block rounded-md bg-brand-600 px-5 py-2.5 font-medium text-white hover:bg-brand-700">
                  {several ? `Abrir: ${p.classLabel ? `Turma ${p.classLabel}` : p.title}` : "Abrir"}
                </a>
              </li>
            ))}
          </ul>
          <p className="mt-3 text-xs text-slate-500">
            Ao abrir, o Hub envia à ferramenta o seu identificador de perfil, o seu papel e, se a escola permitir, nome e e-mail.
          </p>
        </section>
        {pickerClasses.length > 0 && (
          <section aria-labelledby="picker-title" className="mt-6 border-t border-slate-200 pt-6">
            <h2 id="picker-title" className="font-semibold">Adicionar conteúdo a uma turma</h2>
            <p className="mt-1 text-sm text-slate-600">Escolha atividades na ferramenta; cada uma vira um item da turma, aberto pelos alunos no Hub.</p>
            <ul className="mt-3 flex flex-wrap gap-3">
              {pickerClasses.map((c) => (
                <li key={c.classId}>
                  <a href={`/lti13/deep-linking?toolId=${encodeURIComponent(toolId)}&classId=${c.classId}`} className="inline-block rounded-md border border-brand-600 px-4 py-2 text-sm font-medium text-brand-700 hover:bg-brand-50">
                    Escolher conteúdo para {c.label}
                  </a>
                </li>
              ))}
            </ul>
          </section>
        )}
      </div>
    </article>
  );
}
