import Link from "@/components/link";

/** Page links that keep the current filters; "Página 2 de 7 · 134 resultados". */
export function Pagination(props: { basePath: string; params: Record<string, string | undefined>; page: number; pageCount: number; total: number; noun?: [string, string] }) {
  const [one, many] = props.noun ?? ["resultado", "resultados"];
  const href = (page: number) => {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(props.params)) if (v) query.set(k, v);
    if (page > 1) query.set("page", String(page));
    const qs = query.toString();
    return qs ? `${props.basePath}?${qs}` : props.basePath;
  };
  const page = Math.min(props.page, props.pageCount);
  return (
    <nav aria-label="Paginação" className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-slate-600">
      <p>
        {props.total === 1 ? `1 ${one}` : `${props.total.toLocaleString("pt-BR")} ${many}`}
        {props.pageCount > 1 && ` · página ${page} de ${props.pageCount}`}
      </p>
      {props.pageCount > 1 && (
        <div className="flex gap-2">
          {page > 1 ? (
            <Link href={href(page - 1)} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-100" rel="prev">← Anterior</Link>
          ) : (
            <span aria-disabled className="rounded-md border border-slate-200 px-3 py-1.5 text-slate-400">← Anterior</span>
          )}
          {page < props.pageCount ? (
            <Link href={href(page + 1)} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 hover:bg-slate-100" rel="next">Próxima →</Link>
          ) : (
            <span aria-disabled className="rounded-md border border-slate-200 px-3 py-1.5 text-slate-400">Próxima →</span>
          )}
        </div>
      )}
    </nav>
  );
}
