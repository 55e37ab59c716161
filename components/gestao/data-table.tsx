import type { ReactNode } from "react";

/** A plain, accessible table with a real empty state (what to do next, not just "no data"). */
export function DataTable(props: { caption: string; headers: string[]; rows: { key: string; cells: ReactNode[] }[]; empty: ReactNode }) {
  if (props.rows.length === 0) {
    return <div className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">{props.empty}</div>;
  }
  return (
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">{props.caption}</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold uppercase tracking-wide text-slate-600">
          <tr>
            {props.headers.map((h) => (
              <th key={h} scope="col" className="px-4 py-3">{h}</th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {props.rows.map((r) => (
            <tr key={r.key} className="align-top hover:bg-slate-50">
              {r.cells.map((c, i) => (
                <td key={i} className="px-4 py-3">{c}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
