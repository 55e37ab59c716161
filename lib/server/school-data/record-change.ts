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
  record: { id: string } & Record<string, unknown>;
  profileIds?: string[];
  periodCode?: string | null;
}

/**
 * Appends the Data API event for a write. Must be called with the transaction that made the
 * write, so the row and its event commit or roll back together. Nothing else writes events.
 */
export async function recordChange(tx: Tx, change: ChangeInput): Promise<void> {
  await tx.changeEvent.create({ data: changeEventData(change) });
}

/** The row for one event; batched writers pass these to createMany in the same transaction. */
export function changeEventData(change: ChangeInput): Prisma.ChangeEventCreateManyInput {
  return {
    institutionId: change.institutionId,
    entity: change.entity,
    kind: change.kind,
    recordId: change.record.id,
    record: change.record as Prisma.InputJsonValue,
    profileIds: change.profileIds ?? [],
    periodCode: change.periodCode ?? null,
  };
}
