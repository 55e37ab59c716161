import { describe, expect, it } from "vitest";
import { atMostEvery } from "./at-most-every";

describe("atMostEvery", () => {
  it("runs on the first call, then not again until the interval has passed", async () => {
    let now = 1_000;
    let runs = 0;
    const tick = atMostEvery(60_000, async () => void runs++, () => now);
    await tick();
    await tick();
    now += 59_999;
    await tick();
    expect(runs).toBe(1);
    now += 1;
    await tick();
    await tick();
    expect(runs).toBe(2);
  });

  it("passes the task's failure to the call that ran it, and waits the interval before trying again", async () => {
    let now = 0;
    let runs = 0;
    const tick = atMostEvery(10, async () => {
      runs++;
      throw new Error("boom");
    }, () => now);
    await expect(tick()).rejects.toThrow("boom");
    await tick();
    now = 10;
    await expect(tick()).rejects.toThrow("boom");
    expect(runs).toBe(2);
  });
});
