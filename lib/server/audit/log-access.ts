// The institution's access log (DataAccessLog): what left the hub towards a partner, through which
// channel, naming the attributes but never their values. Written off the response path: the
// insert is started, not awaited, so a read costs no extra round trip; a failed insert is
// reported and never fails the read. docs/gestao.md ("Registro de acessos") says what is kept.
import { database } from "@/lib/server/db/database";
import type { AccessChannel } from "@/lib/generated/prisma/client";
import { statusClass } from "@/lib/server/http/route-family.mjs";
import { log } from "@/lib/server/log.mjs";
import { metrics } from "@/lib/server/metrics/registry.mjs";
import { ACCESS_LOG_INSERT_SQL } from "./access-log-sql";

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

/**
 * Entries are written in batches: one insert per BATCH_DELAY_MS (or per BATCH_MAX entries), not
 * one per request, which at a morning's rate of sign-ins and launches was a write per request
 * (docs/decisions/021).
 */
const BATCH_MAX = 500;
const BATCH_DELAY_MS = 5;

interface TRow {
  channel: AccessChannel;
  applicationId: string | null;
  toolId: string | null;
  institutionId: string | null;
  profileId: string | null;
  attributes: readonly string[];
  filters: Record<string, string>;
  status: number;
  eventCount: number;
  createdAt: Date;
}

let queue: TRow[] = [];
let timer: NodeJS.Timeout | undefined;
const pending = new Set<Promise<void>>();

function insert(rows: TRow[]): Promise<unknown> {
  return database().sql.query(ACCESS_LOG_INSERT_SQL, [JSON.stringify(rows)], { prepared: true });
}

/** Writes a batch; if it fails as a whole, each row on its own, so one bad row loses only itself. */
async function writeBatch(rows: TRow[]): Promise<void> {
  try {
    await insert(rows);
    return;
  } catch (error) {
    if (rows.length === 1) throw error;
  }
  const results = await Promise.allSettled(rows.map((row) => insert([row])));
  const failed = results.flatMap((r, i) => (r.status === "rejected" ? [{ row: rows[i]!, error: r.reason as unknown }] : []));
  if (failed.length > 0) throw Object.assign(failed[0]!.error instanceof Error ? failed[0]!.error : new Error(String(failed[0]!.error)), { channel: failed[0]!.row.channel });
}

function writeQueued(): void {
  clearTimeout(timer);
  timer = undefined;
  const rows = queue;
  queue = [];
  if (rows.length === 0) return;
  const write: Promise<void> = writeBatch(rows)
    .catch((error: unknown) =>
      log().error({ channel: rows[0]!.channel, rows: rows.length, error: error instanceof Error ? error.name : typeof error }, "DataAccessLog write failed"),
    )
    .finally(() => pending.delete(write));
  pending.add(write);
}

export function logAccess(entry: TAccessLogEntry): void {
  metrics().partnerAccess.inc({ channel: entry.channel, status_class: statusClass(entry.status) });
  queue.push({
    channel: entry.channel,
    applicationId: entry.applicationId ?? null,
    toolId: entry.toolId ?? null,
    institutionId: entry.institutionId ?? null,
    profileId: entry.profileId ?? null,
    attributes: entry.attributes ?? [],
    filters: entry.filters ?? {},
    status: entry.status,
    eventCount: entry.eventCount ?? 0,
    createdAt: new Date(),
  });
  if (queue.length >= BATCH_MAX) writeQueued();
  else timer ??= setTimeout(writeQueued, BATCH_DELAY_MS);
}

/** Writes what is queued and waits for every write started (tests; server.mjs at shutdown). */
export async function flushAccessLogs(): Promise<void> {
  writeQueued();
  await Promise.all([...pending]);
}
