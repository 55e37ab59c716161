// The people of a Data API page are probed by id through hash indexes on Profile and Person
// (query-events.ts, peopleSql; migration 20261128110000_people_hash_with_room). A probe reads one
// bucket page only while no bucket has overflowed; this checks that the migrated indexes' fill
// keeps every bucket within its page while a table grows one row batch at a time, as a network's
// does. PostgreSQL only: `pgstathashindex` comes from the pgstattuple extension.
import { describe, expect, it } from "vitest";
import { setupTestDatabase } from "@/test/database";

const t = setupTestDatabase();

interface THashIndex {
  table: string;
  name: string;
  method: string;
  columns: string;
  options: string[] | null;
}

/** The hash indexes the people lookup reads, as migrated. */
const peopleIndexes = () =>
  t.db.sql.query<THashIndex>(
    `SELECT t.relname AS "table", c.relname AS name, am.amname AS method, pg_get_indexdef(i.indexrelid, 1, true) AS columns, c.reloptions AS options
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid JOIN pg_am am ON am.oid = c.relam
      WHERE t.relname IN ('Profile', 'Person') AND am.amname = 'hash' ORDER BY t.relname`,
  );

describe("the people lookup's hash indexes", () => {
  it("one per table, on id, with the fill that leaves room for unsplit buckets", async () => {
    expect(await peopleIndexes()).toEqual([
      { table: "Person", name: "Person_id_hash_sparse_idx", method: "hash", columns: "id", options: ["fillfactor=35"] },
      { table: "Profile", name: "Profile_id_hash_sparse_idx", method: "hash", columns: "id", options: ["fillfactor=35"] },
    ]);
  });

  it.runIf(!!process.env.DATABASE_URL)(
    "grown in batches to 650,000 rows with the migrated fill, no bucket overflows (at the default fill, hundreds do)",
    async () => {
      const [profile] = (await peopleIndexes()).filter((i) => i.table === "Profile");
      const grow = async (options: string) => {
        await t.db.sql.exec(`DROP TABLE IF EXISTS hash_growth; CREATE TABLE hash_growth (id uuid);
          CREATE INDEX hash_growth_idx ON hash_growth USING hash (id) ${options}`);
        const overflow: number[] = [];
        for (let step = 0; step < 25; step++) {
          await t.db.sql.exec(`INSERT INTO hash_growth SELECT gen_random_uuid() FROM generate_series(1, 26000)`);
          const [stats] = await t.db.sql.query<{ overflow: number }>(`SELECT overflow_pages::int AS overflow FROM pgstathashindex('hash_growth_idx')`);
          overflow.push(stats!.overflow);
        }
        return overflow;
      };
      await t.db.sql.exec(`CREATE EXTENSION IF NOT EXISTS pgstattuple`);
      const migrated = await grow(`WITH (${profile!.options!.join(", ")})`);
      const byDefault = await grow("");
      expect(migrated).toEqual(migrated.map(() => 0));
      expect(Math.max(...byDefault)).toBeGreaterThan(100);
    },
    60_000,
  );
});
