// DataAccessLog: which application read which institution's data, with which filters and result.
// Written off the response path: the insert is started, not awaited, so a read costs no extra
// round trip; a failed insert is reported and never fails the read.
import { database } from "@/lib/db";

export interface TDataAccessLogEntry {
  applicationId: string;
  institutionId: string;
  endpoint: "data" | "summary";
  /** The query parameters as received (never the key). */
  filters: Record<string, string>;
  status: number;
  eventCount?: number;
}

const pending = new Set<Promise<void>>();

export function logDataAccess(entry: TDataAccessLogEntry): void {
  // Raw SQL: a Prisma create costs milliseconds of CPU on the request's event loop.
  const write: Promise<void> = database()
    .sql.query(
      `INSERT INTO "DataAccessLog" (id, "applicationId", "institutionId", endpoint, filters, status, "eventCount")
       VALUES (gen_random_uuid(), $1, $2, $3, $4::jsonb, $5, $6)`,
      [entry.applicationId, entry.institutionId, entry.endpoint, JSON.stringify(entry.filters), entry.status, entry.eventCount ?? 0],
      { prepared: true },
    )
    .then(
      () => undefined,
      (error: unknown) => console.error("DataAccessLog write failed", error instanceof Error ? error.name : typeof error),
    )
    .finally(() => pending.delete(write));
  pending.add(write);
}

/** Waits for the log writes already started (tests, graceful shutdown). */
export async function flushDataAccessLogs(): Promise<void> {
  await Promise.all([...pending]);
}
