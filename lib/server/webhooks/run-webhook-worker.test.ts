// The worker's loops when nothing is due: one of them polls, the others wait for it.
import { afterEach, describe, expect, it } from "vitest";
import { database, setDatabase } from "@/lib/server/db/database";
import { setupTestDatabase } from "@/test/database";
import { startWebhookWorker, type TWebhookWorker } from "./run-webhook-worker";

setupTestDatabase();

let worker: TWebhookWorker | null = null;
afterEach(async () => {
  await worker?.stop();
  worker = null;
});

describe("an idle worker", () => {
  it("sends one claim per poll, whatever its number of loops, and stops", async () => {
    const claims: number[] = [];
    const real = database();
    setDatabase({ ...real, sql: { ...real.sql, query: (sql, params, options) => (sql.includes("SKIP LOCKED") && claims.push(performance.now()), real.sql.query(sql, params, options)) } });
    try {
      const pollMs = 250;
      worker = startWebhookWorker({ concurrency: 4, pollMs, syncEveryMs: 60_000 });
      // Each loop claims once on starting; after that, only the poller, once a poll.
      await new Promise((r) => setTimeout(r, 100));
      const from = claims.length;
      await new Promise((r) => setTimeout(r, 6 * pollMs));
      const polls = claims.length - from;
      // Four loops each claiming every poll would send about 24 in six polls.
      expect(polls).toBeGreaterThanOrEqual(3);
      expect(polls).toBeLessThanOrEqual(8);
      // The waiting loops are released by the stop (this would never end otherwise).
      await worker.stop();
      worker = null;
    } finally {
      setDatabase(real);
    }
  });
});
