// The summary dashboard of /gestao: the Data API summary's tree (same shape, same counting
// conditions — eventConditions of query-events.ts) for an institution the manager reaches, plus a
// timeline of events per day or month. summary.test.ts checks the tree equals GET
// /manager/v1/summary/{org_id} for the same filters.
import { database } from "@/lib/server/db/database";
import { env } from "@/lib/env";
import { eventConditions } from "@/lib/server/data-api/query-events";
import { countEventTree, type TSummaryNode } from "@/lib/server/data-api/count-event-tree";
import { requestedEntities, requestedKinds, type TEntityName, type TEventKind } from "@/lib/validations/data-api";
import { ZSummaryFiltersSchema } from "@/lib/validations/management";
import { dayRange } from "./day-range";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";
import { subtreeOf } from "@/lib/server/institution-tree/subtree-of";

export interface TTimelinePoint {
  /** AAAA-MM-DD (by day) or AAAA-MM (by month), in the hub's time zone. */
  bucket: string;
  counts: Record<TEventKind, number>;
}

export interface TInstitutionSummary {
  tree: TSummaryNode;
  entities: TEntityName[];
  kinds: TEventKind[];
  timeline: { unit: "day" | "month"; from: string; to: string; points: TTimelinePoint[] };
}

const DAY = 86_400_000;

export async function summarizeInstitution(options: { scope: TManagerScope; institutionId: string; filters: Record<string, unknown> }): Promise<TInstitutionSummary> {
  const institution = requireInReach(options);
  const filters = ZSummaryFiltersSchema.parse(options.filters);
  const entities = requestedEntities({ only: filters.entidade });
  const kinds = requestedKinds({ event: filters.evento });
  const timeZone = env().HUB_TIME_ZONE;
  const { from, until } = dayRange({ from: filters.de, to: filters.ate });

  const members = subtreeOf({ institutions: options.scope.institutions, rootId: institution.id });
  const ids = members.map((i) => i.id);
  const { tree } = await countEventTree({ subtree: members, filters: { entities, kinds, from, until } });

  // Timeline: the chosen dates, or the last 30 days; by month past ~4 months.
  const end = until ?? new Date();
  const start = from ?? new Date(end.getTime() - 30 * DAY);
  const unit = end.getTime() - start.getTime() > 124 * DAY ? "month" : "day";
  const tParams: unknown[] = [ids, timeZone];
  const tWhere = ['e."institutionId" = ANY($1::uuid[])', ...eventConditions({ entities, kinds, from: start, until: end }, tParams)];
  const format = unit === "day" ? "YYYY-MM-DD" : "YYYY-MM";
  const series = await database().sql.query<{ bucket: string; kind: TEventKind; n: string }>(
    `SELECT to_char(e."occurredAt" AT TIME ZONE $2, '${format}') AS bucket, e.kind::text AS kind, count(*)::text AS n
       FROM "ChangeEvent" e WHERE ${tWhere.join(" AND ")} GROUP BY 1, 2 ORDER BY 1`,
    tParams,
  );
  const points = new Map<string, TTimelinePoint>();
  for (const s of series) {
    const point = points.get(s.bucket) ?? { bucket: s.bucket, counts: { insert: 0, update: 0, delete: 0 } };
    point.counts[s.kind] = Number(s.n);
    points.set(s.bucket, point);
  }
  const day = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(d);
  // Every bucket of the window, empty ones too, so the chart's x axis is continuous.
  const first = day(start);
  const last = day(new Date(end.getTime() - 1));
  const filled: TTimelinePoint[] = [];
  for (let cursor = new Date(`${first.slice(0, unit === "day" ? 10 : 7)}${unit === "day" ? "" : "-01"}T12:00:00Z`); ; ) {
    const bucket = cursor.toISOString().slice(0, unit === "day" ? 10 : 7);
    if (bucket > last.slice(0, bucket.length) || filled.length > 400) break;
    filled.push(points.get(bucket) ?? { bucket, counts: { insert: 0, update: 0, delete: 0 } });
    if (unit === "day") cursor.setUTCDate(cursor.getUTCDate() + 1);
    else cursor.setUTCMonth(cursor.getUTCMonth() + 1);
  }
  return {
    tree,
    entities,
    kinds,
    timeline: { unit, from: first, to: last, points: filled },
  };
}
