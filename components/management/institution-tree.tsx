import Link from "@/components/link";
import type { TManagedInstitution } from "@/lib/server/management/resolve-manager-scope";
import { KIND_LABEL } from "./labels";

/** The manager's institutions as an indented tree, each a link to its pages. */
export function InstitutionTree({ institutions }: { institutions: TManagedInstitution[] }) {
  return (
    <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm" aria-label="Instituições sob sua gestão">
      {institutions.map((i) => (
        <li key={i.id} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 py-3 pr-4" style={{ paddingLeft: `${1 + i.depth * 1.5}rem` }}>
          <span className="flex min-w-0 items-center gap-2">
            {i.depth > 0 && <span aria-hidden className="text-slate-400">└</span>}
            <Link href={`/gestao/${i.id}`} className="font-medium text-brand-700 hover:underline">{i.name}</Link>
            <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">{KIND_LABEL[i.kind]}</span>
          </span>
          <span className="flex gap-3 text-sm">
            <Link href={`/gestao/${i.id}/pessoas`} className="text-slate-600 hover:underline">Pessoas</Link>
            <Link href={`/gestao/${i.id}/turmas`} className="text-slate-600 hover:underline">Turmas</Link>
            <Link href={`/gestao/${i.id}/resumo`} className="text-slate-600 hover:underline">Resumo</Link>
          </span>
        </li>
      ))}
    </ul>
  );
}
