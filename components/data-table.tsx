import type { ReactNode } from "react";

export interface TDataTableRow {
  key: string;
  cells: ReactNode[];
  /** data-* attributes of the row (what tests and scripts find it by). */
  data?: Record<`data-${string}`, string>;
}

/**
 * The hub's one data table: plain and accessible, with a caption for screen readers, and a real
 * empty state (what to do next, not just "no data"). With `rowHeader`, each row's first cell is
 * its header (`<th scope="row">`), which names the row for assistive technology.
 */
export function DataTable(props: { caption: string; headers: string[]; rows: TDataTableRow[]; empty: ReactNode; rowHeader?: boolean }) {
  if (props.rows.length === 0) {
    return <div className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center text-slate-600">{props.empty}</div>;
  }
  return (
    // Focusable so a keyboard can scroll a table wider than a phone (WCAG 2.1.1; axe scrollable-region-focusable);
    // relative, so the cells' sr-only text (position: absolute) is clipped with the table instead of widening the page.
    <div tabIndex={0} role="group" aria-label={props.caption} className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
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
            <tr key={r.key} className="align-top hover:bg-slate-50" {...r.data}>
              {r.cells.map((c, i) =>
                i === 0 && props.rowHeader ? (
                  <th key={i} scope="row" className="px-4 py-3 text-left font-normal">{c}</th>
                ) : (
                  <td key={i} className="px-4 py-3">{c}</td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
