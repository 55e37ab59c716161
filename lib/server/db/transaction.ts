import { db } from "@/lib/server/db/database";
import { AppError } from "@/lib/errors";
import type { Prisma, PrismaClient } from "@/lib/generated/prisma/client";
import { isDatabaseUnavailable } from "./unavailable";

export type Tx = Prisma.TransactionClient;

// Prisma's 5 s default is too short for batched imports, and PGlite runs one transaction at a
// time and queues the rest, so the wait for a connection gets room too.
const TRANSACTION_LIMITS = { timeout: 60_000, maxWait: 20_000 } as const;

/**
 * The database went away after every statement of a transaction had run, while its COMMIT was
 * in flight: it may have been applied or not, and the hub cannot tell. Still a 503 (try again
 * later), but the message must not say "nothing was written" — a manager who believed that would
 * import the same file twice.
 */
export class CommitOutcomeUnknownError extends AppError {
  constructor() {
    super(
      "unavailable",
      "A conexão com o banco de dados caiu enquanto a gravação era confirmada: ela pode ter sido feita ou não. Confira os dados antes de repetir.",
    );
    this.name = "CommitOutcomeUnknownError";
  }
}

/**
 * One interactive transaction with the hub's limits: every service write goes through here. A
 * loss of the database after the last statement (during COMMIT) is a CommitOutcomeUnknownError;
 * before it, the transaction was rolled back and the error is the usual one.
 */
export async function transaction<T>(
  fn: (tx: Tx) => Promise<T>,
  limits: { timeout: number; maxWait: number } = TRANSACTION_LIMITS,
  client: Pick<PrismaClient, "$transaction"> = db(),
): Promise<T> {
  let committing = false;
  try {
    return await client.$transaction(async (tx) => {
      const result = await fn(tx);
      committing = true;
      return result;
    }, limits);
  } catch (error) {
    if (committing && isDatabaseUnavailable(error)) throw new CommitOutcomeUnknownError();
    throw error;
  }
}
