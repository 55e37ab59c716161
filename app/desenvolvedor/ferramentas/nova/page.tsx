import type { Metadata } from "next";
import Link from "@/components/link";
import { ToolForm } from "@/components/developer/tool-form";
import { requireDeveloper } from "@/lib/server/developer/require-developer";
import { createToolAction } from "../actions";

export const metadata: Metadata = { title: "Nova ferramenta" };

export default async function NewToolPage() {
  const developer = await requireDeveloper("/desenvolvedor/ferramentas/nova");
  return (
    <section>
      <Link href="/desenvolvedor" className="text-sm font-medium text-brand-700 hover:underline">← Visão geral</Link>
      <h1 className="mt-3 text-2xl font-bold">Nova ferramenta</h1>
      <p className="mt-1 mb-6 text-slate-600">
        Os cinco dados da galeria são obrigatórios. As credenciais LTI são as que a sua ferramenta gerou para o Hub.
      </p>
      <ToolForm mode="create" action={createToolAction} edtechs={developer.edtechs} />
    </section>
  );
}
