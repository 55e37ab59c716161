import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isUuidText, UuidPermutation } from "./uuid-permutation";

const key = () => randomBytes(32);

describe("UuidPermutation: a keyed bijection of UUIDs that keeps them RFC 9562 UUIDs", () => {
  const p = new UuidPermutation(key());
  const ids = Array.from({ length: 2000 }, () => randomUUID());

  it("inverse undoes forward, for a batch and one at a time", () => {
    const out = p.forward(ids);
    expect(p.inverse(out)).toEqual(ids);
    expect(ids.slice(0, 50).map((id) => p.forward([id])[0])).toEqual(out.slice(0, 50));
  });

  it("keeps the version and variant bits, so strict validators accept the image", () => {
    const out = p.forward(ids);
    for (const id of out) {
      expect(z.uuid().safeParse(id).success).toBe(true);
      expect(id[14]).toBe("4");
      expect("89ab").toContain(id[19]);
    }
    // Other versions and variants pass through unchanged in those bits.
    const odd = ["00000000-0000-0000-0000-000000000001", "ffffffff-ffff-7fff-cfff-ffffffffffff"];
    const image = p.forward(odd);
    // The version nibble stays; of the variant nibble only its two high bits are fixed.
    expect(image.map((id) => [id[14], parseInt(id[19]!, 16) >> 2])).toEqual([["0", 0], ["7", 3]]);
    expect(p.inverse(image)).toEqual(odd);
  });

  it("is deterministic per key, different across keys, and scatters: no id maps to itself or keeps its digits", () => {
    const k = key();
    expect(new UuidPermutation(k).forward(ids)).toEqual(new UuidPermutation(k).forward(ids));
    const a = p.forward(ids);
    const b = new UuidPermutation(key()).forward(ids);
    for (let i = 0; i < ids.length; i++) {
      expect(a[i]).not.toBe(b[i]);
      expect(a[i]).not.toBe(ids[i]);
    }
    // Each hex digit outside the fixed ones changes with probability 15/16: about 1,875 of 2,000.
    const same = ids.filter((id, i) => id.slice(0, 8) === a[i]!.slice(0, 8)).length;
    expect(same).toBe(0);
    expect(new Set(a).size).toBe(ids.length);
  });

  it("reads upper-case input and writes lower case", () => {
    const id = randomUUID();
    expect(p.forward([id.toUpperCase()])).toEqual(p.forward([id]));
    expect(isUuidText(id.toUpperCase())).toBe(true);
    expect(isUuidText(`${id}0`)).toBe(false);
    expect(isUuidText("not-a-uuid")).toBe(false);
  });
});
