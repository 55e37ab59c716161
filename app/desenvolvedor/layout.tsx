import type { Metadata } from "next";
import Link from "@/components/link";
import type { ReactNode } from "react";

export const metadata: Metadata = { title: { default: "Área do desenvolvedor", template: "%s · Desenvolvedor · Hub Educacional" } };

// Navigation only: every page and every action checks the person's edtech itself (layouts are not
// re-run on client navigation, so they cannot be where access is decided).
export default function DeveloperLayout({ children }: { children: ReactNode }) {
  return (
    <div>
      <nav aria-label="Área do desenvolvedor" className="mb-6 flex flex-wrap items-center gap-x-5 gap-y-2 border-b border-slate-200 pb-3 text-sm">
        <span className="font-semibold text-brand-900">Desenvolvedor</span>
        <Link href="/desenvolvedor" className="text-slate-700 hover:underline">Visão geral</Link>
        <Link href="/desenvolvedor/ferramentas/nova" className="text-slate-700 hover:underline">Nova ferramenta</Link>
        <Link href="/desenvolvedor/aplicacoes/nova" className="text-slate-700 hover:underline">Nova aplicação</Link>
        <Link href="/desenvolvedor/sandbox" className="text-slate-700 hover:underline">Sandbox</Link>
        <Link href="/desenvolvedor/atividade" className="text-slate-700 hover:underline">Atividade</Link>
      </nav>
      {children}
    </div>
  );
}
