import { database } from "@/lib/db";
import { env } from "@/lib/env";
import { fromZodError } from "@/lib/errors";
import {
  SUMMARY_QUERY_PARAMETERS,
  ZSummaryQuerySchema,
  queryInput,
  requestedEntities,
  requestedKinds,
  type TEntityName,
  type TEventKind,
} from "@/lib/validations/data-api";
import { authorizeDataAccess } from "./authorize-data-access";
import { logDataAccess } from "./log-data-access";
import { eventConditions } from "./query-events";
import { toEventFilters } from "./to-event-filters";

export type TCounts = Partial<Record<TEntityName, Partial<Record<TEventKind, number>>>>;

export interface TSummaryNode {
  instituicao: { id: string; nome: string; tipo: "network" | "school" };
  /** The institution's own events. */
  contagens: TCounts;
  /** Its own events plus every descendant's. */
  total: TCounts;
  filhos: TSummaryNode[];
}

const PARAMETER_NAMES = Object.keys(SUMMARY_QUERY_PARAMETERS);

/**
 * GET /manager/v1/summary/{org_id}: event counts per entity and kind for the institution and each
 * descendant, as a tree, with totals that include descendants. Same authorization as the data
 * endpoint; one GROUP BY over the subtree, the tree is built in memory. Only the requested
 * entities and kinds appear, each with a number (0 when none).
 */
export async function summarizeEvents(options: {
  apiKey: string | null | undefined;
  orgId: string | undefined;
  searchParams: URLSearchParams;
}): Promise<TSummaryNode> {
  const input = queryInput(options.searchParams, PARAMETER_NAMES);
  const audit = { endpoint: "summary" as const, filters: input };
  const grant = await authorizeDataAccess({ apiKey: options.apiKey, orgId: options.orgId, audit });
  const log = { ...audit, applicationId: grant.key.applicationId, institutionId: grant.institution.id };
  const parsed = ZSummaryQuerySchema.safeParse(input);
  if (!parsed.success) {
    const error = fromZodError(parsed.error);
    logDataAccess({ ...log, status: error.status });
    throw error;
  }
  const entities = requestedEntities(parsed.data);
  const kinds = requestedKinds(parsed.data);

  const params: unknown[] = [grant.subtree.map((i) => i.id)];
  const where = ['e."institutionId" = ANY($1::uuid[])', ...eventConditions({ ...toEventFilters(parsed.data, env().HUB_TIME_ZONE), entities, kinds }, params)];
  const rows = await database().sql.query<{ institutionId: string; entity: TEntityName; kind: TEventKind; n: string }>(
    `SELECT e."institutionId", e.entity::text AS entity, e.kind::text AS kind, count(*)::text AS n
       FROM "ChangeEvent" e WHERE ${where.join(" AND ")} GROUP BY 1, 2, 3`,
    params,
  );

  const zero = (): TCounts => Object.fromEntries(entities.map((e) => [e, Object.fromEntries(kinds.map((k) => [k, 0]))]));
  const nodes = new Map<string, TSummaryNode>();
  for (const i of grant.subtree) nodes.set(i.id, { instituicao: { id: i.id, nome: i.name, tipo: i.kind }, contagens: zero(), total: zero(), filhos: [] });
  let eventCount = 0;
  for (const r of rows) {
    nodes.get(r.institutionId)!.contagens[r.entity]![r.kind] = Number(r.n);
    eventCount += Number(r.n);
  }
  // subtree lists parents before children; children are already ordered by name.
  for (const i of grant.subtree.slice(1)) nodes.get(i.parentId!)!.filhos.push(nodes.get(i.id)!);
  for (const i of [...grant.subtree].reverse()) {
    const n = nodes.get(i.id)!;
    for (const source of [n.contagens, ...n.filhos.map((c) => c.total)]) add(n.total, source);
  }

  logDataAccess({ ...log, status: 200, eventCount });
  return nodes.get(grant.institution.id)!;
}

function add(target: TCounts, source: TCounts): void {
  for (const [entity, counts] of Object.entries(source) as [TEntityName, Partial<Record<TEventKind, number>>][]) {
    const sum = target[entity]!;
    for (const [kind, n] of Object.entries(counts) as [TEventKind, number][]) sum[kind] = (sum[kind] ?? 0) + n;
  }
}
