import type { Metadata } from "next";
import Link from "@/components/link";
import { notFound } from "next/navigation";
import { ToolLogo } from "@/components/tool-logo";
import { requireProfile } from "@/lib/server/auth/current-user";
import { getTeacherClass } from "@/lib/server/classes/get-teacher-class";

export const metadata: Metadata = { title: "Turma" };

type Props = { params: Promise<{ classId: string }> };

/** A teacher's page for one class they teach: its tools, each with the link to open it for the class. */
export default async function TeacherClassPage({ params }: Props) {
  const { classId } = await params;
  const user = await requireProfile(`/turmas/${encodeURIComponent(classId)}`);
  const page = await getTeacherClass({ profile: { id: user.profile.id, role: user.profile.role, institutionId: user.profile.institution.id }, classId });
  if (!page) notFound();
  const c = page.class;
  return (
    <section aria-labelledby="class-title" className="space-y-6">
      <div>
        <Link href="/" className="text-sm font-medium text-brand-700 hover:underline">← Início</Link>
        <h1 id="class-title" className="mt-2 text-2xl font-bold">Turma {c.name}</h1>
        <p className="text-slate-600">Período {c.periodCode} · {c.students === 1 ? "1 aluno" : `${c.students} alunos`}</p>
      </div>
      <section aria-labelledby="class-tools-title">
        <h2 id="class-tools-title" className="text-xl font-semibold">Ferramentas da turma</h2>
        <p className="text-sm text-slate-600">
          As ferramentas que a escola disponibilizou para esta turma. O link de cada uma abre a ferramenta para quem for da turma: envie-o aos alunos ou projete-o em sala.
        </p>
        {page.tools.length === 0 ? (
          <p className="mt-4 rounded-xl border border-dashed border-slate-300 bg-white p-6 text-slate-700">
            Nenhuma ferramenta foi disponibilizada só para esta turma. As ferramentas da escola toda estão no <Link href="/" className="text-brand-700 underline">início</Link>.
          </p>
        ) : (
          <ul className="mt-4 grid gap-4 md:grid-cols-2" aria-label="Ferramentas da turma">
            {page.tools.map((tool) => (
              <li key={tool.placementId} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
                <div className="flex items-start gap-4">
                  <ToolLogo src={tool.logoUrl} title={tool.title} />
                  <div className="min-w-0">
                    <h3 className="font-semibold">{tool.title}</h3>
                    <p className="mt-1 text-sm text-slate-600">{tool.shortDescription}</p>
                  </div>
                </div>
                <label htmlFor={`share-${tool.placementId}`} className="mt-4 block text-sm font-medium">Link para abrir com a turma</label>
                <input id={`share-${tool.placementId}`} readOnly value={tool.shareUrl} className="mt-1 block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-xs" />
                {tool.usable && (
                  <a href={`/launch/${tool.placementId}`} className="mt-3 inline-block rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700" aria-label={`Abrir ${tool.title}`}>
                    Abrir
                  </a>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="class-cards-title" className="rounded-xl border border-slate-200 bg-white p-5">
        <h2 id="class-cards-title" className="text-lg font-semibold">Crachás de acesso</h2>
        <p className="mt-1 text-sm text-slate-600">Um crachá com código QR por aluno, para entrar sem digitar e-mail nem senha. Imprimir de novo invalida os crachás anteriores.</p>
        <form method="post" action={`/gestao/${c.institutionId}/turmas/${c.id}/crachas`} className="mt-3">
          <button type="submit" className="rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">Imprimir crachás da turma</button>
        </form>
      </section>
    </section>
  );
}
