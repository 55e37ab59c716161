import { ToolLogo } from "@/components/tool-logo";

export interface ToolCardPreviewProps {
  title: string;
  shortDescription: string;
  logoUrl: string | null;
  caption?: string;
}

/**
 * The gallery card as schools will see it (same box, logo and text as components/tool-card.tsx),
 * without its links: a preview has no placement to open.
 */
export function ToolCardPreview({ title, shortDescription, logoUrl, caption = "Prévia do cartão na galeria" }: ToolCardPreviewProps) {
  const shownTitle = title.trim() || "Título da ferramenta";
  return (
    <figure className="max-w-sm">
      <article aria-label={`Prévia do cartão: ${shownTitle}`} className="flex h-full flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
        <div className="flex items-start gap-4">
          <ToolLogo src={logoUrl} title={shownTitle} />
          <div className="min-w-0">
            <h3 className="font-semibold leading-snug text-brand-900">{shownTitle}</h3>
          </div>
        </div>
        <p className="mt-3 flex-1 text-sm text-slate-600">{shortDescription.trim() || "A descrição curta aparece aqui."}</p>
        <div className="mt-4 flex items-center justify-between gap-3" aria-hidden>
          <span className="text-sm font-medium text-brand-700">Detalhes</span>
          <span className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white">Abrir</span>
        </div>
      </article>
      <figcaption className="mt-2 text-xs text-slate-500">{caption}</figcaption>
    </figure>
  );
}
