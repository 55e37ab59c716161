// The webhook worker inside each hub process: a few loops that claim due cursors
// (deliver-next-batch.ts) until stopped. Instances share the work through the table alone (a
// claim is a row lock plus a lease), so running one per hub process needs no coordination.
import { hostname } from "node:os";
import { log } from "@/lib/server/log.mjs";
import { DEFAULT_DELIVERY_SETTINGS, deliverNextBatch, type TDeliverySettings } from "./deliver-next-batch";
import { syncWebhookCursors } from "./sync-webhook-cursors";

export interface TWorkerOptions extends Partial<TDeliverySettings> {
  /** Batches in flight at once in this process. */
  concurrency?: number;
  /** How long the polling loop sleeps when no cursor is due (the others wait for it to claim one). */
  pollMs?: number;
  /** How often new endpoints and newly enabled institutions get their cursors. */
  syncEveryMs?: number;
}

export interface TWebhookWorker {
  /** Stops claiming, and resolves once the batches in flight are finished (their cursors updated). */
  stop(): Promise<void>;
  readonly settings: TDeliverySettings;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) return resolve();
    const wake = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", wake);
      resolve();
    }, ms);
    signal.addEventListener("abort", wake, { once: true });
  });

export function startWebhookWorker(options: TWorkerOptions = {}): TWebhookWorker {
  const { concurrency = 2, pollMs = 200, syncEveryMs = 5_000, ...rest } = options;
  const settings: TDeliverySettings = { ...DEFAULT_DELIVERY_SETTINGS, worker: `${hostname()}:${process.pid}`, ...rest };
  const stopping = new AbortController();
  let lastSync = 0;
  let syncing: Promise<void> | null = null;
  const sync = () => {
    if (Date.now() - lastSync < syncEveryMs) return syncing ?? Promise.resolve();
    lastSync = Date.now();
    syncing = syncWebhookCursors().finally(() => { syncing = null; });
    return syncing;
  };
  // When no cursor is due, one loop polls every pollMs and the others wait until a claim finds
  // one: an idle process sends one claim per pollMs, not one per loop (each loop's claim cost an
  // idle hub about 0.9 ms of CPU). The poller wakes the others as soon as it claims a cursor, before
  // delivering it; a woken loop that finds nothing becomes the poller while the first delivers, so
  // under load every loop claims as before.
  let polling = false;
  let waiting: { promise: Promise<void>; wake: () => void } | null = null;
  const wakeWaiting = () => {
    waiting?.wake();
    waiting = null;
  };
  stopping.signal.addEventListener("abort", wakeWaiting, { once: true });
  const untilWoken = (): Promise<void> => {
    if (!waiting) {
      let wake = () => {};
      const promise = new Promise<void>((resolve) => (wake = resolve));
      waiting = { promise, wake };
    }
    return waiting.promise;
  };
  const loop = async () => {
    while (!stopping.signal.aborted) {
      let result: Awaited<ReturnType<typeof deliverNextBatch>> = "none";
      try {
        await sync();
        result = await deliverNextBatch(settings, wakeWaiting);
      } catch (error) {
        // A database outage or a bug: logged, and the loop keeps going after a pause. The cursor
        // is released or its lease expires; nothing is lost.
        log().error({ err: error }, "Webhook delivery step failed");
        await sleep(1_000, stopping.signal);
      }
      if (result !== "none" || stopping.signal.aborted) continue;
      if (polling) await untilWoken();
      else {
        polling = true;
        await sleep(pollMs, stopping.signal);
        polling = false;
      }
    }
  };
  const loops = Array.from({ length: concurrency }, loop);
  return {
    settings,
    stop: async () => {
      stopping.abort();
      await Promise.all(loops);
    },
  };
}
