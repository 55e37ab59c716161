"use client";
import Link from "@/components/link";
import { usePathname } from "next/navigation";

const TABS = [
  ["", "Visão geral"],
  ["/pessoas", "Pessoas"],
  ["/turmas", "Turmas"],
  ["/periodos", "Períodos"],
  ["/disciplinas", "Disciplinas"],
  ["/importar", "Importar CSV"],
  ["/aplicativos", "Aplicativos e dados"],
  ["/ferramentas", "Ferramentas"],
  ["/entrada", "Entrada"],
  ["/resumo", "Resumo"],
  ["/uso", "Uso"],
  ["/acessos", "Registro de acessos"],
] as const;

/** The sections of one institution; the current one is marked for screen readers too. */
export function ManagerTabs({ institutionId }: { institutionId: string }) {
  const pathname = usePathname();
  const base = `/gestao/${institutionId}`;
  return (
    <nav aria-label="Seções da instituição" className="-mx-1 flex flex-wrap gap-1 border-b border-slate-200 pb-2">
      {TABS.map(([suffix, label]) => {
        const href = `${base}${suffix}`;
        const current = suffix === "" ? pathname === base : pathname === href || pathname.startsWith(`${href}/`);
        return (
          <Link
            key={suffix}
            href={href}
            aria-current={current ? "page" : undefined}
            className={`rounded-md px-3 py-1.5 text-sm font-medium ${current ? "bg-brand-600 text-white" : "text-slate-700 hover:bg-slate-100"}`}
          >
            {label}
          </Link>
        );
      })}
    </nav>
  );
}
