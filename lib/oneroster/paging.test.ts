import { describe, expect, it } from "vitest";
import { parsePaging } from "./paging";
import { OneRosterError } from "./status";
import { refusedWith } from "./test-refusal";

const OPTIONS = { maxLimit: 1000 };

const refused = (run: () => unknown): OneRosterError => refusedWith("invaliddata", run);

describe("parsePaging", () => {
  it("defaults to limit 100 and offset 0, the binding's defaults", () => {
    expect(parsePaging(null, null, OPTIONS)).toEqual({ limit: 100, offset: 0 });
    expect(parsePaging(undefined, undefined, OPTIONS)).toEqual({ limit: 100, offset: 0 });
  });

  it("reads plain integers", () => {
    expect(parsePaging("25", "50", OPTIONS)).toEqual({ limit: 25, offset: 50 });
    expect(parsePaging("1", "0", OPTIONS)).toEqual({ limit: 1, offset: 0 });
    expect(parsePaging("007", "010", OPTIONS)).toEqual({ limit: 7, offset: 10 });
  });

  it("takes another default limit from the options, within maxLimit", () => {
    expect(parsePaging(null, null, { defaultLimit: 50, maxLimit: 1000 })).toEqual({ limit: 50, offset: 0 });
    expect(parsePaging(null, null, { defaultLimit: 500, maxLimit: 200 })).toEqual({ limit: 200, offset: 0 });
  });

  it("lowers a limit above maxLimit to maxLimit (limit is a maximum, not a promise)", () => {
    expect(parsePaging("5000", "0", OPTIONS)).toEqual({ limit: 1000, offset: 0 });
    expect(parsePaging("9999999999", "0", OPTIONS)).toEqual({ limit: 1000, offset: 0 });
  });

  it("accepts the largest int32 offset and refuses one past it", () => {
    expect(parsePaging(null, "2147483647", OPTIONS).offset).toBe(2147483647);
    expect(refused(() => parsePaging(null, "2147483648", OPTIONS)).description).toMatch(/at most 2147483647/);
  });

  it.each([
    ["0", "limit"],
    ["-1", "limit"],
    ["", "limit"],
    ["1.5", "limit"],
    ["1e2", "limit"],
    [" 10", "limit"],
    ["10abc", "limit"],
    ["0x10", "limit"],
    ["99999999999", "limit"],
    ["ten", "limit"],
  ])("refuses limit %j", (limit) => {
    expect(refused(() => parsePaging(limit, null, OPTIONS)).description).toMatch(/^Invalid limit/);
  });

  it.each(["-1", "", "1.0", "+5", "NaN", "Infinity"])("refuses offset %j", (offset) => {
    expect(refused(() => parsePaging(null, offset, OPTIONS)).description).toMatch(/^Invalid offset/);
  });
});
