import { database } from "@/lib/server/db/database";

// Sign-in throttling lives in the database so every app instance sees the same counters.
export const THROTTLE = {
  windowMinutes: 15,
  /** Failures within the window before the key is refused for `lockMinutes`. */
  maxFailures: { login: 5, ip: 30 },
  lockMinutes: 15,
  /** Each failure adds this much delay to the next answer, up to `maxDelayMs`. */
  delayPerFailureMs: 250,
  maxDelayMs: 2_000,
} as const;

/** Whether a "RateLimit" row (`alias`, possibly absent: a LEFT JOIN) locks its key now, as SQL: never null. */
export const LOCKED_SQL = (alias: string) => `COALESCE(${alias}."lockedUntil" > now(), false)`;

export interface ThrottleState {
  failures: number;
  lockedUntil: Date | null;
}

export async function readThrottle(key: string): Promise<ThrottleState> {
  const [row] = await database().sql.query<{ count: number; lockedUntil: Date | null; fresh: boolean }>(
    `SELECT count, "lockedUntil", "windowStart" > now() - make_interval(mins => $2) AS fresh FROM "RateLimit" WHERE key = $1`,
    [key, THROTTLE.windowMinutes],
  );
  if (!row) return { failures: 0, lockedUntil: null };
  const lockedUntil = row.lockedUntil && new Date(row.lockedUntil) > new Date() ? new Date(row.lockedUntil) : null;
  return { failures: row.fresh ? row.count : 0, lockedUntil };
}

/** Atomically counts one failure; locks the key once it reaches `limit` within the window. */
export async function recordFailure(key: string, limit: number): Promise<void> {
  await database().sql.query(
    `INSERT INTO "RateLimit" (key, count, "windowStart") VALUES ($1, 1, now())
     ON CONFLICT (key) DO UPDATE SET
       count = CASE WHEN "RateLimit"."windowStart" <= now() - make_interval(mins => $2) THEN 1 ELSE "RateLimit".count + 1 END,
       "windowStart" = CASE WHEN "RateLimit"."windowStart" <= now() - make_interval(mins => $2) THEN now() ELSE "RateLimit"."windowStart" END`,
    [key, THROTTLE.windowMinutes],
  );
  await database().sql.query(
    `UPDATE "RateLimit" SET "lockedUntil" = now() + make_interval(mins => $3), count = 0, "windowStart" = now()
      WHERE key = $1 AND count >= $2`,
    [key, limit, THROTTLE.lockMinutes],
  );
}

export async function clearThrottle(key: string): Promise<void> {
  await database().sql.query(`DELETE FROM "RateLimit" WHERE key = $1`, [key]);
}
