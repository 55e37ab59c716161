import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, laterPosition } from "./cursor";

describe("cursor", () => {
  it("round-trips a position and is URL-safe", () => {
    const c = encodeCursor({ txid: "9223372036854775807", seq: "42" });
    expect(c).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(c)).toEqual({ txid: "9223372036854775807", seq: "42" });
  });

  it.each([
    ["not base64url", "a+b/c"],
    ["empty", ""],
    ["wrong version", Buffer.from("2.1.1").toString("base64url")],
    ["negative", Buffer.from("1.-1.1").toString("base64url")],
    ["leading zero", Buffer.from("1.01.1").toString("base64url")],
    ["beyond bigint", Buffer.from("1.9223372036854775808.1").toString("base64url")],
    ["missing part", Buffer.from("1.5").toString("base64url")],
    ["junk", "eyJ0IjoiMSJ9"],
  ])("rejects %s", (_, cursor) => {
    expect(decodeCursor(cursor)).toBeNull();
  });

  it("laterPosition orders by txid, then seq", () => {
    expect(laterPosition({ txid: "10", seq: "1" }, { txid: "9", seq: "100" })).toEqual({ txid: "10", seq: "1" });
    expect(laterPosition({ txid: "10", seq: "1" }, { txid: "10", seq: "2" })).toEqual({ txid: "10", seq: "2" });
  });
});
