import { randomBytes, randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { isUuidAt, isUuidText, UuidPermutation } from "./uuid-permutation";

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

  it("maps fixed ids under a fixed key to the same images as ever: partners keep the ids they were given", () => {
    // Computed by the first implementation (decision 014); a change to the rounds, the masks or
    // the text conversion that moved any of them would re-key every partner's records.
    const fixed = new UuidPermutation(Buffer.from("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", "hex"));
    const ids = ["00000000-0000-4000-8000-000000000000", "6f9619ff-8b86-4011-b42d-00c04fc964ff", "FFFFFFFF-FFFF-7FFF-CFFF-FFFFFFFFFFFF"];
    const images = ["45243ead-60e9-4e67-8489-4205e83d219f", "9ade9d2d-3d00-484c-8b15-1cb1086ec3ff", "1020122b-1bc1-7933-c603-fc55209a2ad1"];
    expect(fixed.forward(ids)).toEqual(images);
    expect(fixed.inverse(images)).toEqual(ids.map((id) => id.toLowerCase()));
  });
});

describe("isUuidAt: a UUID's 36 characters where they lie in a longer text", () => {
  const id = "6f9619ff-8b86-4011-b42d-00c04fc964ff";
  const text = `{"id": "${id}", "x": 1}`;

  it("finds one at its offset, in either case, and nowhere else", () => {
    expect(isUuidAt(text, 8)).toBe(true);
    expect(isUuidAt(`"${id.toUpperCase()}"`, 1)).toBe(true);
    for (const at of [-1, 0, 7, 9, text.length - 36, text.length - 10]) expect(isUuidAt(text, at)).toBe(false);
  });

  it("refuses a wrong character at every position: a non-hex digit, or a dash out of place", () => {
    for (let i = 0; i < 36; i++) {
      const dash = i === 8 || i === 13 || i === 18 || i === 23;
      for (const c of dash ? ["0", "a", "_"] : ["g", "-", " ", "G", "/", ":", "@", "`"]) {
        const bad = `${id.slice(0, i)}${c}${id.slice(i + 1)}`;
        expect(isUuidAt(bad, 0), bad).toBe(false);
        expect(isUuidText(bad), bad).toBe(false);
      }
    }
  });
});
