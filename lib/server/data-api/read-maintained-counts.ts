// The summary's counts from the counts maintained with the log (EventCount, GrantCountRow:
// prisma/migrations/20261126140100_feed_clock_and_counts; docs/decisions/018-feed-clock-and-maintained-counts.md),
// never a scan of the events. Equal to the GROUP BY of count-event-tree.ts with the same filters and
// view (feed-equivalence.test.ts checks it on random histories).
import { database, type Database } from "@/lib/server/db/database";
import { readPrimaryFromNowOn } from "@/lib/server/db/replicas";
import { log } from "@/lib/server/log.mjs";
import { Role } from "@/lib/generated/prisma/enums";
import type { TEntityName, TEventKind } from "@/lib/validations/data-api";
import { PERSONAL_ATTRIBUTES } from "@/lib/validations/data-api";
import type { TEventFilters, TFeedView } from "./query-events";

export interface TCountRow {
  institutionId: string;
  entity: TEntityName;
  kind: TEventKind;
  n: number;
}

interface TKeyRow {
  institutionId: string;
  entity: TEntityName;
  kind: TEventKind;
  periodCode: string | null;
  role: string;
  hiddenMask: number;
}

const ROLES: readonly string[] = Object.values(Role);
const ALL_PERSONAL = (1 << PERSONAL_ATTRIBUTES.length) - 1;

/** Filters the maintained counts answer; the others (user_id, dates) need the events themselves. */
export function countableFromMaintained(filters: Omit<TEventFilters, "institutionIds">): boolean {
  return !filters.userId && !filters.from && !filters.until;
}

/**
 * Whether an update whose personal-only changes are `hiddenMask` (0: it changed something else, or
 * has no `changed`) is delivered in a record of role `role`: query-events.ts feedViewConditions's
 * visibility condition, on the counts' keys.
 */
function visibility(view: TFeedView): (role: string, mask: number) => boolean {
  const hidden = Object.values(Role).map((role) =>
    PERSONAL_ATTRIBUTES.reduce((bits, attribute, i) => (view.visible(role).includes(attribute) ? bits : bits | (1 << i)), 0),
  );
  if (hidden.every((h) => h === 0)) return () => true;
  const same = hidden.every((h) => h === hidden[0]);
  return (role, mask) => {
    const index = ROLES.indexOf(role);
    const bits = same ? hidden[0]! : index >= 0 ? hidden[index]! : ALL_PERSONAL;
    return mask === 0 || (mask & ~bits) !== 0;
  };
}

/** The view's grants above 0 (the institutions whose history starts at a grant), by institution. */
function grantsOf(institutionIds: string[], view: TFeedView | undefined): Map<string, string> {
  const grants = new Map<string, string>();
  if (view) {
    for (const id of institutionIds) {
      const g = view.grantedTxid[id];
      if (g !== undefined && g !== "0") grants.set(id, g);
    }
  }
  return grants;
}

/**
 * The server a summary reads (docs/decisions/042-read-replicas.md): database("may-lag"), unless that
 * is a replica that has not yet ended every transaction below one of the view's grants (the
 * history before a grant depends on supersedes below it, decision 016) or, for the maintained
 * counts, lacks a grant's counts (computed once, by a write, on the primary): then the primary.
 */
export async function summarySource(options: { institutionIds: string[]; view?: TFeedView; maintained: boolean }): Promise<Database> {
  const primary = database();
  const source = database("may-lag");
  const grants = grantsOf(options.institutionIds, options.view);
  if (source === primary || grants.size === 0) return source;
  const [row] = await source.sql.query<{ ready: boolean }>(
    `SELECT "hub_feed_horizon"() >= max(x.g)${options.maintained ? ` AND bool_and(EXISTS (SELECT 1 FROM "GrantCount" gc WHERE gc."institutionId" = x.i AND gc."grantedTxid" = x.g))` : ""} AS ready
       FROM unnest($1::uuid[], $2::bigint[]) AS x(i, g)`,
    [[...grants.keys()], [...grants.values()]],
  );
  return row?.ready ? source : readPrimaryFromNowOn(primary);
}

/** Delta rows beyond one per key, per institution, from which a read folds them. */
const SCATTERED = 32;

/**
 * Folds, after the read and without waiting, the count rows of the institutions whose keys the
 * read found spread over SCATTERED rows more than there are keys ("hub_fold_counts",
 * prisma/migrations/20261128100000_counts_folded_per_institution): writers fold now and then, and
 * this keeps what a summary reads at about one row per key whatever they did. Sums are unchanged,
 * so a summary running beside the fold counts the same.
 */
function foldWhenScattered(totals: readonly { institutionId: string; rows: number }[]): void {
  const extra = new Map<string, number>();
  for (const row of totals) extra.set(row.institutionId, (extra.get(row.institutionId) ?? 0) + row.rows - 1);
  const scattered = [...extra].filter(([, n]) => n >= SCATTERED).map(([id]) => id);
  if (scattered.length === 0) return;
  // A write: on the primary, whichever server the summary read.
  database()
    .sql.query(`SELECT "hub_fold_counts"($1::uuid[])`, [scattered])
    .catch((error: unknown) => log().warn({ err: error, institutions: scattered.length }, "folding the event counts failed; the next summary tries again"));
}

/**
 * Event counts per institution, entity and kind (the kind the application's feed shows), for the
 * institutions `institutionIds` and the filters entities, kinds, periodCode and view. Reads one
 * row per key (institution, entity, kind, period, role, changed mask) plus, for an application
 * granted at G > 0, the counts of the events below G, computed once per (institution, G) from the
 * maintained counts and the changes since G (docs/decisions/018, "Later").
 */
export async function readMaintainedCounts(options: {
  institutionIds: string[];
  filters: Omit<TEventFilters, "institutionIds"> & { entities: TEntityName[]; kinds: TEventKind[] };
  /** The server to read (summarySource); the primary by default. */
  source?: Database;
}): Promise<TCountRow[]> {
  const { institutionIds, filters } = options;
  const sql = (options.source ?? database()).sql;
  const params: unknown[] = [institutionIds, filters.entities];
  // code_term narrows the entities with a period; the others (periodCode null) pass (query-events.ts).
  const period = (ref: number) => (filters.periodCode ? ` AND (c."periodCode" = $${ref} OR c."periodCode" IS NULL)` : "");
  if (filters.periodCode) params.push(filters.periodCode);
  const keys = `c.entity::text AS entity, c.kind::text AS kind, c."periodCode", c.role, c."hiddenMask"`;
  const totals = await sql.query<TKeyRow & { n: string; rows: number }>(
    `SELECT c."institutionId", ${keys}, sum(c.n)::text AS n, count(*)::int AS rows FROM "EventCount" c
      WHERE c."institutionId" = ANY($1::uuid[]) AND c.entity = ANY($2::text[]::"EntityName"[])${period(3)}
      GROUP BY 1, 2, 3, 4, 5, 6`,
    params,
  );
  foldWhenScattered(totals);

  const grants = grantsOf(institutionIds, filters.view);
  let below: (TKeyRow & { below: string; live: string })[] = [];
  if (grants.size > 0) {
    const ids = [...grants.keys()];
    const txids = ids.map((id) => grants.get(id)!);
    // The counts below each grant are fixed once the grant is made (decision 016): computed by the
    // first summary that needs them, then read. hub_grant_counts derives them from the maintained
    // counts and the events written and superseded since the grant, never the history below it.
    // On a replica they are all there already (summarySource), so this writes nothing.
    await sql.query(
      `SELECT "hub_grant_counts"(x.i, x.g) FROM unnest($1::uuid[], $2::bigint[]) AS x(i, g)
        WHERE NOT EXISTS (SELECT 1 FROM "GrantCount" gc WHERE gc."institutionId" = x.i AND gc."grantedTxid" = x.g)`,
      [ids, txids],
    );
    below = await sql.query<TKeyRow & { below: string; live: string }>(
      `SELECT c."institutionId", ${keys}, c.below::text AS below, c.live::text AS live
         FROM "GrantCountRow" c JOIN unnest($1::uuid[], $2::bigint[]) AS x(i, g) ON c."institutionId" = x.i AND c."grantedTxid" = x.g
        WHERE c.entity = ANY($3::text[]::"EntityName"[])${period(4)}`,
      filters.periodCode ? [ids, txids, filters.entities, filters.periodCode] : [ids, txids, filters.entities],
    );
  }

  const keyOf = (r: TKeyRow) => `${r.institutionId}|${r.entity}|${r.kind}|${r.periodCode ?? "\u0000"}|${r.role}|${r.hiddenMask}`;
  const belowByKey = new Map(below.map((r) => [keyOf(r), Number(r.below)]));
  const visible = filters.view ? visibility(filters.view) : () => true;
  const counts = new Map<string, TCountRow>();
  const add = (institutionId: string, entity: TEntityName, kind: TEventKind, n: number) => {
    if (n === 0 || !filters.kinds.includes(kind)) return;
    const key = `${institutionId}|${entity}|${kind}`;
    const row = counts.get(key);
    if (row) row.n += n;
    else counts.set(key, { institutionId, entity, kind, n });
  };
  // From the grant on (or the whole history): every event, less the updates the view hides.
  for (const r of totals) {
    const n = Number(r.n) - (grants.has(r.institutionId) ? (belowByKey.get(keyOf(r)) ?? 0) : 0);
    if (visible(r.role, r.hiddenMask)) add(r.institutionId, r.entity, r.kind, n);
  }
  // Below the grant: the events still current at it, not deletes; an update is an insert there.
  for (const r of below) add(r.institutionId, r.entity, r.kind === "update" ? "insert" : r.kind, Number(r.live));
  return [...counts.values()];
}
