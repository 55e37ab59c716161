import type { TCounts, TSummaryNode } from "@/lib/server/data-api/summarize-events";
import type { TTimelinePoint } from "@/lib/server/management/summarize-institution";
import type { TEntityName, TEventKind } from "@/lib/validations/data-api";
import { ENTITY_LABEL, EVENT_LABEL, KIND_LABEL } from "./labels";

const KIND_COLOR: Record<TEventKind, string> = { insert: "bg-emerald-500", update: "bg-amber-500", delete: "bg-rose-500" };
const KIND_FILL: Record<TEventKind, string> = { insert: "#10b981", update: "#f59e0b", delete: "#f43f5e" };

function sum(counts: Partial<Record<TEventKind, number>> | undefined): number {
  return Object.values(counts ?? {}).reduce((n, v) => n + (v ?? 0), 0);
}

export function KindLegend({ kinds }: { kinds: TEventKind[] }) {
  return (
    <ul className="flex flex-wrap gap-4 text-xs text-slate-600" aria-label="Legenda">
      {kinds.map((k) => (
        <li key={k} className="flex items-center gap-1.5">
          <span aria-hidden className={`inline-block size-3 rounded-sm ${KIND_COLOR[k]}`} />
          {EVENT_LABEL[k]}
        </li>
      ))}
    </ul>
  );
}

/** Events per entity as stacked horizontal bars (pure CSS), with the numbers in a real table. */
export function CountsTable({ counts, entities, kinds, testIdPrefix }: { counts: TCounts; entities: TEntityName[]; kinds: TEventKind[]; testIdPrefix?: string }) {
  const max = Math.max(1, ...entities.map((e) => sum(counts[e])));
  return (
    // Scrolls by itself on a phone (focusable, so by keyboard too) instead of widening the page.
    <div className="relative overflow-x-auto" tabIndex={0} role="group" aria-label="Eventos por entidade">
      <table className="w-full text-sm">
        <thead className="text-left text-xs uppercase text-slate-500">
          <tr>
            <th scope="col" className="py-1 pr-3">Entidade</th>
            {kinds.map((k) => (
              <th key={k} scope="col" className="px-2 py-1 text-right">{EVENT_LABEL[k]}</th>
            ))}
            <th scope="col" className="w-2/5 py-1 pl-3"><span className="sr-only">Gráfico</span></th>
          </tr>
        </thead>
        <tbody>
          {entities.map((e) => {
            const total = sum(counts[e]);
            return (
              <tr key={e} className="border-t border-slate-100">
                <th scope="row" className="py-1.5 pr-3 text-left font-normal">{ENTITY_LABEL[e]} <span className="font-mono text-xs text-slate-500">{e}</span></th>
                {kinds.map((k) => (
                  <td key={k} className="px-2 py-1.5 text-right tabular-nums" data-testid={testIdPrefix ? `${testIdPrefix}-${e}-${k}` : undefined}>
                    {(counts[e]?.[k] ?? 0).toLocaleString("pt-BR")}
                  </td>
                ))}
                <td className="py-1.5 pl-3" aria-hidden>
                  <div className="flex h-3 overflow-hidden rounded-sm bg-slate-100" style={{ width: `${(total / max) * 100}%`, minWidth: total ? "2px" : 0 }}>
                    {kinds.map((k) => (
                      <span key={k} className={KIND_COLOR[k]} style={{ width: `${total ? ((counts[e]?.[k] ?? 0) / total) * 100 : 0}%` }} />
                    ))}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

/** The institution tree with its totals (children included) and, folded, each child's. */
export function SummaryTree({ node, entities, kinds, depth = 0 }: { node: TSummaryNode; entities: TEntityName[]; kinds: TEventKind[]; depth?: number }) {
  const total = entities.reduce((n, e) => n + sum(node.total[e]), 0);
  const own = entities.reduce((n, e) => n + sum(node.contagens[e]), 0);
  const body = (
    <div className="space-y-3 pt-3">
      <CountsTable counts={node.total} entities={entities} kinds={kinds} testIdPrefix={depth === 0 ? "total" : undefined} />
      {node.filhos.length > 0 && (
        <p className="text-xs text-slate-500">
          Eventos da própria instituição: {own.toLocaleString("pt-BR")}; das unidades abaixo: {(total - own).toLocaleString("pt-BR")}.
        </p>
      )}
      {node.filhos.map((child) => (
        <SummaryTree key={child.instituicao.id} node={child} entities={entities} kinds={kinds} depth={depth + 1} />
      ))}
    </div>
  );
  const title = (
    <span className="flex flex-wrap items-center gap-2">
      <span className="font-semibold">{node.instituicao.nome}</span>
      <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-600">{KIND_LABEL[node.instituicao.tipo]}</span>
      <span className="text-sm text-slate-600">{total.toLocaleString("pt-BR")} eventos{node.filhos.length ? " (com as unidades abaixo)" : ""}</span>
    </span>
  );
  if (depth === 0) {
    return (
      <section className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm" aria-label={`Resumo de ${node.instituicao.nome}`}>
        {title}
        {body}
      </section>
    );
  }
  return (
    <details className="rounded-lg border border-slate-200 p-3" style={{ marginLeft: `${(depth - 1) * 1}rem` }}>
      <summary className="cursor-pointer">{title}</summary>
      {body}
    </details>
  );
}

/** Events over time as stacked SVG columns (no chart library), with a text alternative. */
export function Timeline({ points, kinds, unit }: { points: TTimelinePoint[]; kinds: TEventKind[]; unit: "day" | "month" }) {
  const totals = points.map((p) => kinds.reduce((n, k) => n + p.counts[k], 0));
  const max = Math.max(1, ...totals);
  const width = 800;
  const height = 140;
  const bar = width / Math.max(points.length, 1);
  const label = (bucket: string) => (unit === "day" ? bucket.slice(8, 10) + "/" + bucket.slice(5, 7) : bucket.slice(5, 7) + "/" + bucket.slice(0, 4));
  const busiest = points.reduce((best, p, i) => (totals[i]! > (best.total ?? -1) ? { bucket: p.bucket, total: totals[i]! } : best), { bucket: "", total: -1 });
  return (
    <figure className="space-y-2">
      <svg viewBox={`0 0 ${width} ${height + 18}`} className="h-44 w-full" role="img" aria-label={`Eventos por ${unit === "day" ? "dia" : "mês"}; máximo de ${max} em ${busiest.bucket ? label(busiest.bucket) : "—"}`}>
        <line x1={0} x2={width} y1={height} y2={height} stroke="#cbd5e1" />
        {points.map((p, i) => {
          let y = height;
          return (
            <g key={p.bucket}>
              <title>{`${label(p.bucket)}: ${kinds.map((k) => `${EVENT_LABEL[k]} ${p.counts[k]}`).join(", ")}`}</title>
              {kinds.map((k) => {
                const h = (p.counts[k] / max) * (height - 4);
                y -= h;
                return h > 0 ? <rect key={k} x={i * bar + 1} y={y} width={Math.max(bar - 2, 1)} height={h} fill={KIND_FILL[k]} /> : null;
              })}
              {(points.length <= 16 || i % Math.ceil(points.length / 12) === 0) && (
                <text x={i * bar + bar / 2} y={height + 13} fontSize="9" textAnchor="middle" fill="#64748b">{label(p.bucket)}</text>
              )}
            </g>
          );
        })}
      </svg>
      <figcaption className="text-xs text-slate-500">Maior movimento: {busiest.total > 0 ? `${busiest.total.toLocaleString("pt-BR")} eventos em ${label(busiest.bucket)}` : "nenhum evento no período"}.</figcaption>
    </figure>
  );
}
