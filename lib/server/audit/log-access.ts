// The institution's access log (DataAccessLog): what left the hub towards a partner, through which
// channel, naming the attributes but never their values. Written off the response path: the
// insert is started, not awaited, so a read costs no extra round trip; a failed insert is
// reported and never fails the read. docs/gestao.md ("Registro de acessos") says what is kept.
import { database } from "@/lib/server/db/database";
import type { AccessChannel } from "@/lib/generated/prisma/client";
import { log } from "@/lib/server/log.mjs";

export interface TAccessLogEntry {
  channel: AccessChannel;
  /** The partner: an OAuth application, or a tool for LTI launches. */
  applicationId?: string | null;
  toolId?: string | null;
  /** The institution whose data it was; when absent, the profile's institution. */
  institutionId?: string | null;
  /** The person concerned, for per-person events (user info, id token, launch). */
  profileId?: string | null;
  /** Names of the personal attributes sent (never values). */
  attributes?: readonly string[];
  /** The query parameters as received (never a key or token). */
  filters?: Record<string, string>;
  status: number;
  eventCount?: number;
}

// One statement: the partner's name (kept after the partner is deleted) and, for per-person
// events, the profile's institution are looked up by primary key inside the insert itself.
const INSERT_SQL = `
INSERT INTO "DataAccessLog"
  (id, channel, "applicationId", "applicationName", "toolId", "toolName", "institutionId", "profileId", attributes, filters, status, "eventCount")
VALUES (
  gen_random_uuid(), $1::"AccessChannel",
  $2::uuid, (SELECT a.name FROM "OAuthApplication" a WHERE a.id = $2::uuid),
  $3::uuid, (SELECT t.title FROM "Tool" t WHERE t.id = $3::uuid),
  COALESCE($4::uuid, (SELECT p."institutionId" FROM "Profile" p WHERE p.id = $5::uuid)), $5::uuid,
  ARRAY(SELECT jsonb_array_elements_text($6::jsonb)), $7::jsonb, $8, $9
)`;

const pending = new Set<Promise<void>>();

export function logAccess(entry: TAccessLogEntry): void {
  // Raw SQL: a Prisma create costs milliseconds of CPU on the request's event loop.
  const write: Promise<void> = database()
    .sql.query(
      INSERT_SQL,
      [
        entry.channel,
        entry.applicationId ?? null,
        entry.toolId ?? null,
        entry.institutionId ?? null,
        entry.profileId ?? null,
        JSON.stringify(entry.attributes ?? []),
        JSON.stringify(entry.filters ?? {}),
        entry.status,
        entry.eventCount ?? 0,
      ],
      { prepared: true },
    )
    .then(
      () => undefined,
      (error: unknown) => log().error({ channel: entry.channel, error: error instanceof Error ? error.name : typeof error }, "DataAccessLog write failed"),
    )
    .finally(() => pending.delete(write));
  pending.add(write);
}

/** Waits for the log writes already started (tests; shutdown does not wait, docs/gestao.md). */
export async function flushAccessLogs(): Promise<void> {
  await Promise.all([...pending]);
}
