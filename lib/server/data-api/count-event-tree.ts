import { database, type Database } from "@/lib/server/db/database";
import type { TEntityName, TEventKind } from "@/lib/validations/data-api";
import { eventConditions, eventKindSql, type TEventFilters } from "./query-events";
import { countableFromMaintained, readMaintainedCounts, summarySource, type TCountRow } from "./read-maintained-counts";

export type TCounts = Partial<Record<TEntityName, Partial<Record<TEventKind, number>>>>;

export interface TSummaryNode {
  instituicao: { id: string; nome: string; tipo: "network" | "school" };
  /** The institution's own events. */
  contagens: TCounts;
  /** Its own events plus every descendant's. */
  total: TCounts;
  filhos: TSummaryNode[];
}

export interface TTreeInstitution {
  id: string;
  name: string;
  kind: "network" | "school";
  parentId: string | null;
}

/**
 * The summary tree shared by GET /manager/v1/summary and the /gestao dashboard: the counts
 * maintained with the log (read-maintained-counts.ts) or, for user_id and dates, one GROUP BY over
 * the subtree's matching events (groupEvents); the tree built in memory. `subtree` lists the root first and parents before
 * children (siblings in display order). Only the requested entities and kinds appear, 0 when none.
 */
export async function countEventTree(options: {
  subtree: TTreeInstitution[];
  filters: Omit<TEventFilters, "institutionIds"> & { entities: TEntityName[]; kinds: TEventKind[] };
}): Promise<{ tree: TSummaryNode; eventCount: number }> {
  const { subtree, filters } = options;
  const institutionIds = subtree.map((i) => i.id);
  const maintained = countableFromMaintained(filters);
  // A replica when the request may lag and one can answer as the primary would (summarySource).
  const source = await summarySource({ institutionIds, view: filters.view, maintained });
  const rows = maintained ? await readMaintainedCounts({ institutionIds, filters, source }) : await groupEvents({ institutionIds, filters, source });

  const zero = (): TCounts => Object.fromEntries(filters.entities.map((e) => [e, Object.fromEntries(filters.kinds.map((k) => [k, 0]))]));
  const nodes = new Map<string, TSummaryNode>();
  for (const i of subtree) nodes.set(i.id, { instituicao: { id: i.id, nome: i.name, tipo: i.kind }, contagens: zero(), total: zero(), filhos: [] });
  let eventCount = 0;
  for (const r of rows) {
    nodes.get(r.institutionId)!.contagens[r.entity]![r.kind] = r.n;
    eventCount += Number(r.n);
  }
  for (const i of subtree.slice(1)) nodes.get(i.parentId!)!.filhos.push(nodes.get(i.id)!);
  for (const i of [...subtree].reverse()) {
    const n = nodes.get(i.id)!;
    for (const source of [n.contagens, ...n.filhos.map((c) => c.total)]) add(n.total, source);
  }
  return { tree: nodes.get(subtree[0]!.id)!, eventCount };
}

/**
 * The counts by GROUP BY over the events: the straightforward query, for the filters the
 * maintained counts cannot answer and as the reference the randomized tests compare them with.
 */
export async function groupEvents(options: {
  institutionIds: string[];
  filters: Omit<TEventFilters, "institutionIds">;
  /** The server to read; the primary by default. */
  source?: Database;
}): Promise<TCountRow[]> {
  const { filters } = options;
  const params: unknown[] = [options.institutionIds];
  const where = ['e."institutionId" = ANY($1::uuid[])', ...eventConditions(filters, params)];
  // The kind as the application's feed shows it (query-events.ts, eventKindSql).
  const kind = (filters.view && eventKindSql(filters.view, (value) => `$${params.push(value)}`)) ?? "e.kind::text";
  const rows = await (options.source ?? database()).sql.query<{ institutionId: string; entity: TEntityName; kind: TEventKind; n: string }>(
    `SELECT e."institutionId", e.entity::text AS entity, ${kind} AS kind, count(*)::text AS n
       FROM "ChangeEvent" e WHERE ${where.join(" AND ")} GROUP BY 1, 2, 3`,
    params,
  );
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

function add(target: TCounts, source: TCounts): void {
  for (const [entity, counts] of Object.entries(source) as [TEntityName, Partial<Record<TEventKind, number>>][]) {
    const sum = target[entity]!;
    for (const [kind, n] of Object.entries(counts) as [TEventKind, number][]) sum[kind] = (sum[kind] ?? 0) + n;
  }
}
