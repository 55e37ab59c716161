// cursorTextSql (lib/data-api/cursor.ts) reads a stored cursor in SQL as decodeCursor reads it in
// JavaScript: the webhook claim compares positions with it (deliver-next-batch.ts).
import { describe, expect, it } from "vitest";
import { cursorTextSql, decodeCursor, encodeCursor } from "@/lib/data-api/cursor";
import { database } from "@/lib/server/db/database";
import { setupTestDatabase } from "@/test/database";

setupTestDatabase();

const textOf = async (value: string | null) => {
  const [row] = await database().sql.query<{ text: string | null }>(`SELECT ${cursorTextSql("$1::text")} AS text`, [value]);
  return row!.text;
};

describe("cursorTextSql", () => {
  it("gives the text encodeCursor encoded, for positions of every length", async () => {
    const positions = [
      { txid: "0", seq: "0" }, { txid: "7", seq: "12" }, { txid: "760", seq: "4001" }, { txid: "123456789", seq: "98765" },
      { txid: "999999999999999999", seq: "1" }, { txid: "4294967296", seq: "9223372036854775807" },
    ];
    for (const position of positions) {
      const cursor = encodeCursor(position);
      expect(decodeCursor(cursor)).toEqual(position);
      expect(await textOf(cursor)).toBe(`1.${position.txid}.${position.seq}`);
    }
  });

  it("never raises on what is not a cursor: NULL, or a text that is not of the form 1.<txid>.<seq>", async () => {
    for (const value of [null, "", "a", "abcde", "not a cursor!", "x".repeat(81), "////", "=abc"]) {
      const text = await textOf(value);
      expect(text === null || !/^1\.\d+\.\d+$/.test(text)).toBe(true);
    }
    expect(await textOf(Buffer.from("2.5.6").toString("base64url"))).toBe("2.5.6");
  });
});
