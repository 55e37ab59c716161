import type { Prisma } from "@/lib/generated/prisma/client";
import { database } from "@/lib/server/db/database";
import type { Tx } from "@/lib/server/db/transaction";

/** The developer area's actions; the manager area's are named the same way (`placement.create`, ...). */
export type TDeveloperAuditAction =
  | "tool.create"
  | "tool.update"
  | "tool.withdraw"
  | "tool.reactivate"
  | "tool.launch_test"
  | "application.create"
  | "application.update"
  | "application.rotate_secret"
  | "application.delete"
  | "api_key.create"
  | "api_key.revoke"
  | "webhook.create"
  | "webhook.delete"
  | "webhook.enable"
  | "sandbox.create"
  | "sandbox.generate_changes";

export interface TAuditEntry {
  /** Null when nobody is known yet (an upstream account refused before it pointed at a person). */
  actorPersonId: string | null;
  action: TDeveloperAuditAction | `${"placement" | "institution" | "application_access" | "tool_sharing" | "edtech_link" | "card" | "identity_provider" | "upstream"}.${string}`;
  targetType:
    | "tool"
    | "application"
    | "webhook_endpoint"
    | "api_key"
    | "placement"
    | "institution"
    | "application_access"
    | "tool_sharing"
    | "edtech_link"
    | "class"
    | "sign_in_card"
    | "identity_provider"
    | "upstream_account";
  targetId: string;
  edtechId?: string | null;
  institutionId?: string | null;
  /** Names of what changed, prefixes, counts: never a secret, key, or hash of one. */
  details?: Record<string, Prisma.InputJsonValue | null>;
}

// Any of these words in a detail name means a caller is about to log a secret; refusing here
// turns that mistake into a failing test instead of a leak.
const SECRET_LIKE = /secret|password|hash|^key$|token/i;

/** The entry's details, refused if a name looks like a secret's. */
function checkedDetails(entry: TAuditEntry): Record<string, Prisma.InputJsonValue | null> {
  const details = entry.details ?? {};
  for (const name of Object.keys(details)) {
    if (SECRET_LIKE.test(name)) throw new Error(`audit detail "${name}" looks like a secret`);
  }
  return details;
}

/**
 * The one writer of AuditLog (developer and manager areas): appends the row in the caller's
 * transaction, so the action and its record commit together.
 */
export async function recordAudit(tx: Tx, entry: TAuditEntry): Promise<void> {
  const details = checkedDetails(entry);
  await tx.auditLog.create({
    data: {
      actorPersonId: entry.actorPersonId,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      edtechId: entry.edtechId ?? null,
      institutionId: entry.institutionId ?? null,
      details: details as Prisma.InputJsonValue,
    },
  });
}

/**
 * The same row written by one prepared statement of its own, for a hot path where a transaction's
 * four round trips (and Prisma's query planning) cost more than the work: `alongside` is a
 * data-modifying WITH clause (`WITH x AS (UPDATE …)`) whose parameters start at $8, so the write
 * and its record commit together, as one statement does.
 */
export async function recordAuditWith(entry: TAuditEntry, alongside: { with: string; values: unknown[] }): Promise<void> {
  const details = checkedDetails(entry);
  await database().sql.query(
    `${alongside.with}
INSERT INTO "AuditLog" (id, "actorPersonId", action, "targetType", "targetId", "edtechId", "institutionId", details)
VALUES (gen_random_uuid(), $1::uuid, $2, $3, $4, $5::uuid, $6::uuid, $7::jsonb)`,
    [entry.actorPersonId, entry.action, entry.targetType, entry.targetId, entry.edtechId ?? null, entry.institutionId ?? null, JSON.stringify(details), ...alongside.values],
    { prepared: true },
  );
}
