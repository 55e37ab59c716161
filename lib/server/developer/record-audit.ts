import type { Prisma } from "@/lib/generated/prisma/client";
import type { Tx } from "@/lib/server/school-data/record-change";

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
  | "api_key.revoke";

export interface TAuditEntry {
  actorPersonId: string;
  action: TDeveloperAuditAction;
  targetType: "tool" | "application" | "api_key";
  targetId: string;
  edtechId: string;
  /** Names of what changed, prefixes, counts: never a secret, key, or hash of one. */
  details?: Record<string, string | number | boolean | string[] | null>;
}

// Any of these words in a detail name means a caller is about to log a secret; refusing here
// turns that mistake into a failing test instead of a leak.
const SECRET_LIKE = /secret|password|hash|^key$|token/i;

/** Appends the audit row in the caller's transaction, so the action and its record commit together. */
export async function recordAudit(tx: Tx | Prisma.TransactionClient, entry: TAuditEntry): Promise<void> {
  const details = entry.details ?? {};
  for (const name of Object.keys(details)) {
    if (SECRET_LIKE.test(name)) throw new Error(`audit detail "${name}" looks like a secret`);
  }
  await tx.auditLog.create({
    data: {
      actorPersonId: entry.actorPersonId,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId,
      edtechId: entry.edtechId,
      details: details as Prisma.InputJsonValue,
    },
  });
}
