// cursorPositionSql (lib/data-api/cursor.ts) reads a stored cursor in SQL as decodeCursor reads it
// in JavaScript: the webhook claim compares positions with it (deliver-next-batch.ts).
import { describe, expect, it } from "vitest";
import { cursorPositionSql, decodeCursor, encodeCursor } from "@/lib/data-api/cursor";
import { database } from "@/lib/server/db/database";
import { setupTestDatabase } from "@/test/database";

setupTestDatabase();

const positionOf = async (value: string | null) => {
  const [row] = await database().sql.query<{ at: string | null }>(`SELECT ${cursorPositionSql("$1::text")} AS at`, [value]);
  return row!.at;
};

describe("cursorPositionSql", () => {
  it("gives the position encodeCursor encoded, for numbers of every length a bigint surely holds", async () => {
    const positions = [
      { txid: "0", seq: "0" }, { txid: "7", seq: "12" }, { txid: "760", seq: "4001" }, { txid: "123456789", seq: "98765" },
      { txid: "999999999999999999", seq: "1" }, { txid: "4294967296", seq: "922337203685477580" },
    ];
    for (const position of positions) {
      const cursor = encodeCursor(position);
      expect(decodeCursor(cursor)).toEqual(position);
      expect(await positionOf(cursor)).toBe(`${position.txid}.${position.seq}`);
    }
  });

  it("gives NULL, never an error, for what is not one of our cursors, and for 19-digit numbers", async () => {
    const other = (text: string) => Buffer.from(text).toString("base64url");
    for (const value of [null, "", "a", "abcde", "not a cursor!", "x".repeat(81), "////", "=abc", other("2.5.6"), other("1.5"), other("1.5.6.7"), other("1.x.6")]) {
      expect(await positionOf(value)).toBeNull();
    }
    expect(await positionOf(encodeCursor({ txid: "4294967296", seq: "9223372036854775807" }))).toBeNull();
  });
});
