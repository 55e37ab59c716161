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
      const loops = 4;
      worker = startWebhookWorker({ concurrency: loops, pollMs, syncEveryMs: 60_000 });
      // Each loop claims once on starting; after that, only the poller, once a poll. Waiting for the
      // claims rather than for a time keeps this true on a busy machine, where claims only slow down.
      const deadline = Date.now() + 30_000;
      while (claims.length < loops + 5 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(claims.length).toBeGreaterThanOrEqual(loops + 5);
      // The first loop to find nothing polls, after its first claim; five claims more need five of
      // its sleeps (timers may fire a little early). Four loops each claiming every poll would make
      // them within two.
      expect(claims[loops + 4]! - claims[0]!).toBeGreaterThanOrEqual(5 * pollMs * 0.9);
      // The waiting loops are released by the stop (this would never end otherwise).
      await worker.stop();
      worker = null;
    } finally {
      setDatabase(real);
    }
  }, 40_000);
});
