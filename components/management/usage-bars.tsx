/**
 * One chart of the usage page: a table whose last column is a server-rendered SVG bar, so the
 * numbers are read as a table by screen readers and the bars need no script.
 */
export function UsageBars({ caption, label, rows, testId }: { caption: string; label: string; rows: { label: string; count: number }[]; testId: string }) {
  const max = Math.max(1, ...rows.map((r) => r.count));
  return (
    <figure className="min-w-0">
      <table className="w-full text-sm" data-testid={testId}>
        <caption className="mb-2 text-left text-sm font-semibold text-slate-800">{caption}</caption>
        <thead className="sr-only">
          <tr>
            <th scope="col">{label}</th>
            <th scope="col">Quantidade</th>
            <th scope="col">Gráfico</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={3} className="py-2 text-slate-600">Nenhum registro no período.</td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={row.label} className="border-t border-slate-100">
                <th scope="row" className="max-w-48 truncate py-1 pr-3 text-left font-normal" title={row.label}>{row.label}</th>
                <td className="w-16 py-1 pr-3 text-right tabular-nums">{row.count.toLocaleString("pt-BR")}</td>
                <td className="w-1/2 py-1" aria-hidden>
                  <svg width="100%" height="12" role="presentation" focusable="false">
                    <rect x="0" y="1" height="10" rx="2" width={`${Math.max((row.count / max) * 100, row.count ? 1 : 0)}%`} fill="#1d5fd1" />
                  </svg>
                </td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </figure>
  );
}
