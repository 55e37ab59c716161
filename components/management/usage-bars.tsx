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

/**
 * Counts per day as SVG columns (one per day, gaps included), with the numbers in a table for
 * screen readers: a month reads at a glance instead of as thirty rows.
 */
export function UsageDays({ caption, days, testId }: { caption: string; days: { day: string; label: string; count: number }[]; testId: string }) {
  const max = Math.max(1, ...days.map((d) => d.count));
  const width = Math.max(days.length * 12, 120);
  const height = 100;
  const step = width / Math.max(days.length, 1);
  return (
    <figure className="min-w-0" data-testid={testId}>
      <figcaption className="mb-2 text-sm font-semibold text-slate-800">{caption}</figcaption>
      <svg viewBox={`0 0 ${width} ${height + 14}`} className="h-32 w-full" aria-hidden focusable="false" preserveAspectRatio="none">
        <line x1="0" y1={height} x2={width} y2={height} stroke="#94a3b8" strokeWidth="0.5" />
        {days.map((d, i) => {
          const h = (d.count / max) * (height - 4);
          return (
            <rect key={d.day} x={i * step + step * 0.15} y={height - h} width={step * 0.7} height={h} fill="#1d5fd1">
              <title>{`${d.label}: ${d.count}`}</title>
            </rect>
          );
        })}
      </svg>
      <p className="flex justify-between text-xs text-slate-600" aria-hidden>
        <span>{days[0]?.label}</span>
        <span>máximo {max.toLocaleString("pt-BR")} por dia</span>
        <span>{days.at(-1)?.label}</span>
      </p>
      <table className="sr-only">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Dia</th>
            <th scope="col">Quantidade</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.day}>
              <th scope="row">{d.label}</th>
              <td>{d.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
