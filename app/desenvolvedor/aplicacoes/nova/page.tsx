import type { Metadata } from "next";
import Link from "@/components/link";
import { ApplicationForm } from "@/components/developer/application-form";
import { requireDeveloper } from "@/lib/server/developer/require-developer";
import { createApplicationAction } from "../actions";

export const metadata: Metadata = { title: "Nova aplicação" };

export default async function NewApplicationPage() {
  const developer = await requireDeveloper("/desenvolvedor/aplicacoes/nova");
  return (
    <section className="max-w-2xl">
      <Link href="/desenvolvedor" className="text-sm font-medium text-brand-700 hover:underline">← Visão geral</Link>
      <h1 className="mt-3 text-2xl font-bold">Nova aplicação OAuth 2</h1>
      <p className="mt-1 mb-6 text-slate-600">O Hub gera o <code>client_id</code> e o <code>client_secret</code>. O segredo aparece uma única vez.</p>
      <ApplicationForm mode="create" action={createApplicationAction} edtechs={developer.edtechs} />
    </section>
  );
}
