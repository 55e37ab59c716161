import { describe, expect, it } from "vitest";
import { setupTestDatabase } from "@/test/database";
import { PREPARED_TEXTS } from "./driver";

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

  it("answers as unprepared for every kind of value, null and error, and leaves the connection usable after an error", async () => {
    const { sql } = t.db;
    const text = `SELECT $1::uuid AS id, $2::timestamptz AS at, $3::jsonb AS doc, $4::int8 AS big, $5::text[] AS list, $6::bool AS yes, $7::text AS nothing, $8::date AS day`;
    const values = ["0b0e6c4e-8b9b-4c1e-9d7e-6f0a1b2c3d4e", new Date("2026-11-27T08:00:00.123Z"), JSON.stringify({ a: [1, "é"] }), 9007199254740991, ["x", "y,z"], true, null, "2026-02-28"];
    const plain = await sql.query(text, values);
    expect(await sql.query(text, values, { prepared: true })).toEqual(plain);
    expect(await sql.query(text, values, { prepared: true })).toEqual(plain); // the second call binds the named statement
    const failure = (await sql.query(text, ["not-a-uuid", ...values.slice(1)], { prepared: true }).then(() => null, (error: unknown) => error)) as { code?: string } | null;
    expect(failure?.code).toBe("22P02");
    expect(await sql.query(text, values, { prepared: true })).toEqual(plain);
    expect(await sql.query<{ v: number }>("SELECT 1 AS v")).toEqual([{ v: 1 }]);
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
      // PGlite prepares outside transactions only (docs/decisions/034): inside one, it runs unnamed.
      expect(prepared).toEqual([]);
    }
  });

  it("on PGlite, keeps a text run outside a transaction prepared, named after its text, once", async () => {
    const { sql } = t.db;
    const text = "SELECT $1::int + 2 AS v";
    expect(await sql.query(text, [1], { prepared: true })).toEqual([{ v: 3 }]);
    expect(await sql.query(text, [5], { prepared: true })).toEqual([{ v: 7 }]);
    const kept = await sql.query<{ name: string }>(`SELECT name FROM pg_prepared_statements WHERE statement = $1`, [text]);
    // PostgreSQL's pool may have run the two calls on two connections; PGlite has one.
    if (sql.kind === "pglite") expect(kept).toEqual([{ name: expect.stringMatching(/^hub_[0-9a-f]{24}$/) }]);
    else expect(kept.length).toBeLessThanOrEqual(1);
  });
});

describe("prepared statements per connection are bounded", () => {
  it(`names at most ${PREPARED_TEXTS} texts: a text beyond them runs unprepared, with the same answer`, async () => {
    const { sql } = t.db;
    const texts = Array.from({ length: PREPARED_TEXTS + 20 }, (_, i) => `SELECT $1::int + ${i} AS v`);
    const { answers, prepared } = await sql.transaction(async (tx) => {
      const answers: number[] = [];
      for (const text of texts) answers.push((await tx.query<{ v: number }>(text, [1], { prepared: true }))[0]!.v);
      const kept = await tx.query<{ statement: string }>(`SELECT statement FROM pg_prepared_statements WHERE name LIKE 'hub\\_%'`);
      return { answers, prepared: new Set(kept.map((r) => r.statement)) };
    });
    expect(answers).toEqual(texts.map((_, i) => 1 + i));
    if (sql.kind === "postgres") {
      // The earlier tests of this file named a few texts of their own.
      expect(prepared.size).toBeLessThanOrEqual(PREPARED_TEXTS);
      expect(prepared.size).toBeGreaterThan(PREPARED_TEXTS - 10);
      expect(prepared.has(texts[0]!)).toBe(true);
      expect(prepared.has(texts.at(-1)!)).toBe(false);
    } else {
      // Inside a transaction PGlite runs every text unnamed.
      expect(prepared.has(texts[0]!)).toBe(false);
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
