import Link from "@/components/link";
import { PinForm } from "./pin-form";
import { ToolLogo } from "./tool-logo";

export interface ToolCardProps {
  toolId: string;
  placementId: string;
  title: string;
  shortDescription: string;
  logoUrl: string | null;
  classLabel: string | null;
  /** With `returnTo`, the card shows its pin toggle (the home gallery). */
  pinned?: boolean;
  returnTo?: string;
}

/** A gallery card: the title leads to the detail view; "Abrir" launches the placement directly. */
export function ToolCard({ toolId, placementId, title, shortDescription, logoUrl, classLabel, pinned, returnTo }: ToolCardProps) {
  return (
    <article className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm transition hover:border-brand-600">
      <div className="flex items-start gap-4">
        <ToolLogo src={logoUrl} title={title} />
        <div className="min-w-0 flex-1">
          <h3 className="font-semibold leading-snug">
            <Link href={`/ferramentas/${toolId}`} className="hover:underline">{title}</Link>
          </h3>
          {classLabel && <p className="mt-0.5 text-xs font-medium text-brand-700">Turma {classLabel}</p>}
        </div>
        {returnTo !== undefined && <PinForm placementId={placementId} title={title} pinned={pinned ?? false} returnTo={returnTo} />}
      </div>
      <p className="mt-3 flex-1 text-sm text-slate-600">{shortDescription}</p>
      <div className="mt-4 flex items-center justify-between gap-3">
        <Link href={`/ferramentas/${toolId}`} className="text-sm font-medium text-brand-700 hover:underline" aria-label={`Detalhes de ${title}`}>
          Detalhes
        </Link>
        {/* A plain link: /launch is a route handler whose page posts to the tool, not an app page. */}
        <a href={`/launch/${placementId}`} className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700" aria-label={`Abrir ${title}`}>
          Abrir
        </a>
      </div>
    </article>
  );
}
