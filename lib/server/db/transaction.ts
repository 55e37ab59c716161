import { db } from "@/lib/db";
import type { Prisma } from "@/lib/generated/prisma/client";

export type Tx = Prisma.TransactionClient;

// Prisma's 5 s default is too short for batched imports, and PGlite runs one transaction at a
// time and queues the rest, so the wait for a connection gets room too.
const TRANSACTION_LIMITS = { timeout: 60_000, maxWait: 20_000 } as const;

/** One interactive transaction with the hub's limits: every service write goes through here. */
export function transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db().$transaction(fn, TRANSACTION_LIMITS);
}
