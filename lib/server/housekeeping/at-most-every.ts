/**
 * Housekeeping without a scheduler: `task` run by this process at most once per `intervalMs`, by
 * the first call after the interval (the first call runs it). Every instance runs it on its own
 * requests; any one of them is enough, and a missed turn is made up by the next.
 */
export function atMostEvery(intervalMs: number, task: () => Promise<unknown>, clock: () => number = Date.now): () => Promise<void> {
  let last = Number.NEGATIVE_INFINITY;
  return async () => {
    const now = clock();
    if (now - last < intervalMs) return;
    last = now;
    await task();
  };
}
