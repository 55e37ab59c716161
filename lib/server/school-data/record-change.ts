import type { ChangeKind, EntityName, Prisma } from "@/lib/generated/prisma/client";
import { transaction, type Tx } from "@/lib/server/db/transaction";
import { mapDbError } from "@/lib/server/db/map-db-error";

export type { Tx };

export interface WriteOptions {
  /** Run inside the caller's transaction (imports that must be all-or-nothing). */
  tx?: Tx;
}

/** Runs `fn` in the caller's transaction or a new one; constraint failures become AppErrors. */
export async function inTransaction<T>(options: WriteOptions, what: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
  try {
    return options.tx ? await fn(options.tx) : await transaction(fn);
  } catch (error) {
    return mapDbError(error, what);
  }
}

export interface ChangeInput {
  institutionId: string;
  entity: EntityName;
  kind: ChangeKind;
  /** The record's non-personal fields (snapshots.ts): the log never stores a personal value. */
  record: { id: string } & Record<string, unknown>;
  profileIds?: string[];
  periodCode?: string | null;
  /** For an update: the fields it changed (personal attribute names included). */
  changed?: string[];
}

/**
 * Appends the Data API event for a write. Must be called with the transaction that made the
 * write, so the row and its event commit or roll back together. Nothing else writes events.
 */
export async function recordChange(tx: Tx, change: ChangeInput): Promise<void> {
  await recordChanges(tx, [change]);
}

/**
 * Appends several events in one statement (imports), then marks the events they supersede: each
 * earlier event of the same record gets this transaction's id in `supersededTxid`, so a feed
 * that starts later can skip what was no longer current when it began (docs/decisions/016).
 */
export async function recordChanges(tx: Tx, changes: ChangeInput[]): Promise<void> {
  if (changes.length === 0) return;
  await tx.changeEvent.createMany({ data: changes.map(changeEventData) });
  const recordIds = [...new Set(changes.map((c) => c.record.id))];
  await tx.$executeRawUnsafe(SUPERSEDE_SQL, recordIds);
}

// An event is superseded once a later event (higher seq) of the same record exists. Only events
// not yet marked are touched: the first superseding transaction is the one that counts.
const SUPERSEDE_SQL = `UPDATE "ChangeEvent" e SET "supersededTxid" = pg_current_xact_id()::text::bigint
  WHERE e."recordId" = ANY($1::uuid[]) AND e."supersededTxid" IS NULL
    AND EXISTS (SELECT 1 FROM "ChangeEvent" l WHERE l."recordId" = e."recordId" AND l.entity = e.entity AND l.seq > e.seq)`;

/** The row for one event. */
function changeEventData(change: ChangeInput): Prisma.ChangeEventCreateManyInput {
  return {
    institutionId: change.institutionId,
    entity: change.entity,
    kind: change.kind,
    recordId: change.record.id,
    record: change.record as Prisma.InputJsonValue,
    profileIds: change.profileIds ?? [],
    periodCode: change.periodCode ?? null,
    changed: change.changed ?? [],
  };
}
