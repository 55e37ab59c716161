import Link from "@/components/link";
import type { ReactNode } from "react";
import { KIND_LABEL } from "@/components/management/labels";
import { ManagerTabs } from "@/components/management/manager-tabs";
import { requireManagerPage } from "@/lib/server/management/require-manager-page";

export default async function InstitutionLayout({ children, params }: { children: ReactNode; params: Promise<{ institutionId: string }> }) {
  const { institutionId } = await params;
  // Each page checks again through its services; this 404s early for an institution out of reach.
  const { scope, institution } = await requireManagerPage({ returnTo: `/gestao/${institutionId}`, institutionId });
  const trail: typeof scope.institutions = [];
  for (let node: (typeof scope.institutions)[number] | undefined = institution; node; node = scope.institutions.find((i) => i.id === node!.parentId)) trail.unshift(node);
  return (
    <div className="space-y-6">
      <header className="space-y-3">
        <nav aria-label="Hierarquia" className="text-sm text-slate-600">
          <ol className="flex flex-wrap items-center gap-1">
            <li><Link href="/gestao" className="hover:underline">Gestão</Link></li>
            {trail.map((i) => (
              <li key={i.id} className="flex items-center gap-1">
                <span aria-hidden>/</span>
                {i.id === institution.id ? <span aria-current="page">{i.name}</span> : <Link href={`/gestao/${i.id}`} className="hover:underline">{i.name}</Link>}
              </li>
            ))}
          </ol>
        </nav>
        <div className="flex items-center gap-3">
          <h1 className="text-2xl font-bold">{institution.name}</h1>
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">{KIND_LABEL[institution.kind]}</span>
        </div>
        <ManagerTabs institutionId={institution.id} />
      </header>
      {children}
    </div>
  );
}
