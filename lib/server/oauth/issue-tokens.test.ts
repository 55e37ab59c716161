// signWhileWriting's ordering (docs/decisions/025, point 2, and 035): the statement that records
// the tokens reaches PostgreSQL before the signatures start, so the database runs it while the
// signatures hold this thread. Only PostgreSQL can run a statement while this thread is busy (the
// embedded database runs on it), so only there is the ordering observable.
import { describe, expect, it } from "vitest";
import { database } from "@/lib/server/db/database";
import { setupTestDatabase } from "@/test/database";
import { signWhileWriting, type TIssuedTokens } from "./issue-tokens";

setupTestDatabase();

/** Holds this thread for `ms`, as the two synchronous RS256 signatures do (for about 0.5 ms). */
function busySign(ms: number, seen: { start: number; end: number }): () => Promise<TIssuedTokens> {
  return async () => {
    seen.start = Date.now();
    while (Date.now() < seen.start + ms) {
      // busy: nothing else runs on this thread meanwhile
    }
    seen.end = Date.now();
    return { expiresIn: 0, scope: "", subject: "" };
  };
}

describe.runIf(!!process.env.DATABASE_URL)("signWhileWriting on PostgreSQL", () => {
  it("sends the statement before signing starts: the database has run it before the signatures end", async () => {
    const sql = database().sql;
    const statement = "SELECT clock_timestamp() AS ran";
    // A warm pool, as a serving hub has: a statement sent on an idle connection, not on a new one.
    await sql.query(statement, [], { prepared: true });
    for (let round = 0; round < 3; round++) {
      const seen = { start: 0, end: 0 };
      const [, rows] = await signWhileWriting(busySign(300, seen), sql.query<{ ran: Date }>(statement, [], { prepared: true }));
      // Same machine, same clock: had the statement waited for the signatures, it would have run
      // after `end`. Sent first, it runs while this thread is held, 300 ms before `end`.
      expect(rows[0]!.ran.getTime()).toBeLessThan(seen.end);
    }
  });

  it("is needed: signing first, on the same turn, holds the statement until the signatures end", async () => {
    const sql = database().sql;
    const statement = "SELECT clock_timestamp() AS ran";
    await sql.query(statement, [], { prepared: true });
    const seen = { start: 0, end: 0 };
    const write = sql.query<{ ran: Date }>(statement, [], { prepared: true });
    await busySign(300, seen)();
    const [row] = await write;
    expect(row!.ran.getTime()).toBeGreaterThanOrEqual(seen.end);
  });
});
