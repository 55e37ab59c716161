import { describe, expect, it } from "vitest";
import { setupTestDatabase } from "@/test/database";

const t = setupTestDatabase();

describe("SqlDriver.query with prepared statements", () => {
  it("returns what the same query returns unprepared, for several texts and values", async () => {
    const { sql } = t.db;
    for (const n of [1, 2, 3]) {
      const text = `SELECT $1::int * ${n} AS v, $2::text AS s`;
      expect(await sql.query(text, [7, "x"], { prepared: true })).toEqual(await sql.query(text, [7, "x"]));
      expect(await sql.query(text, [9, "y"], { prepared: true })).toEqual([{ v: 9 * n, s: "y" }]);
    }
  });

  it("on PostgreSQL, keeps the statement prepared on the connection, named after its text", async () => {
    const { sql } = t.db;
    const text = "SELECT $1::int + 1 AS v";
    const prepared = await sql.transaction(async (tx) => {
      await tx.query(text, [1], { prepared: true });
      await tx.query(text, [2], { prepared: true }); // the second use binds the same statement
      return tx.query<{ name: string; statement: string }>(`SELECT name, statement FROM pg_prepared_statements WHERE statement = $1`, [text]);
    });
    if (sql.kind === "postgres") {
      expect(prepared).toHaveLength(1);
      expect(prepared[0]!.name).toMatch(/^hub_[0-9a-f]{24}$/);
    } else {
      // PGlite runs in-process: the option is accepted and nothing is kept.
      expect(prepared).toEqual([]);
    }
  });
});

describe("the embedded database's buffer pool", () => {
  it("is 16 MB, not PostgreSQL's 128 MB default, which PGlite keeps resident for good (PostgreSQL's server keeps its own setting)", async () => {
    const [row] = await t.db.sql.query<{ shared_buffers: string }>("SHOW shared_buffers");
    if (t.db.sql.kind === "pglite") expect(row!.shared_buffers).toBe("16MB");
    else expect(row!.shared_buffers).toMatch(/^\d+[kMG]B$/);
  });
});
