// The summary's count rows stay about one per key (issue #24, "buffers do not grow with size"):
// writers append deltas and fold now and then; a summary that meets many more rows than keys
// folds them (read-maintained-counts.ts, "hub_fold_counts"). Runs on PGlite and PostgreSQL.
import { describe, expect, it } from "vitest";
import { database } from "@/lib/server/db/database";
import { transaction } from "@/lib/server/db/transaction";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { recordChanges, type ChangeInput } from "@/lib/server/school-data/record-change";
import { ENTITY_NAMES, EVENT_KINDS } from "@/lib/validations/data-api";
import { setupTestDatabase } from "@/test/database";
import { groupEvents } from "./count-event-tree";
import { readMaintainedCounts, type TCountRow } from "./read-maintained-counts";

setupTestDatabase();

const turma = (institutionId: string, periodCode: string): ChangeInput => {
  const id = crypto.randomUUID();
  return { institutionId, entity: "turma", kind: "insert", record: { id, instituicaoId: institutionId }, profileIds: [], periodCode };
};

const countRows = async (institutionId: string) => {
  const [row] = await database().sql.query<{ rows: number; keys: number }>(
    `SELECT count(*)::int AS rows, count(DISTINCT (c.entity, c.kind, c."periodCode", c.role, c."hiddenMask"))::int AS keys FROM "EventCount" c WHERE c."institutionId" = $1::uuid`,
    [institutionId],
  );
  return row!;
};

const sorted = (rows: TCountRow[]) => rows.map((row) => `${row.entity}|${row.kind}=${row.n}`).sort();

describe("maintained counts: a summary folds scattered count rows", () => {
  it("after a read that met 60 delta rows for 2 keys, the institution has one row per key and the same counts", async () => {
    const school = await createInstitution({ name: "Escola das contagens", kind: "school" });
    await transaction((tx) => recordChanges(tx, [turma(school.id, "2025"), turma(school.id, "2026"), turma(school.id, "2026")]));
    // Deltas as concurrent writers leave them before a fold: +1 and −1 rows of the same keys
    // (their sums change nothing, so the counts must stay equal to the GROUP BY).
    await database().sql.query(
      `INSERT INTO "EventCount" ("institutionId", entity, kind, "periodCode", role, "hiddenMask", n)
       SELECT $1::uuid, 'turma', 'insert', CASE WHEN g % 4 < 2 THEN '2025' ELSE '2026' END, '', 0, CASE WHEN g % 2 = 0 THEN 1 ELSE -1 END
         FROM generate_series(1, 60) AS g`,
      [school.id],
    );
    expect((await countRows(school.id)).rows).toBeGreaterThan(60);

    const institutionIds = [school.id];
    const filters = { entities: [...ENTITY_NAMES], kinds: [...EVENT_KINDS] };
    const expected = sorted(await groupEvents({ institutionIds, filters }));
    expect(sorted(await readMaintainedCounts({ institutionIds, filters }))).toEqual(expected);
    // The fold runs after the read, without holding the answer back.
    await expect.poll(() => countRows(school.id), { timeout: 5_000 }).toEqual({ rows: 2, keys: 2 });
    expect(sorted(await readMaintainedCounts({ institutionIds, filters }))).toEqual(expected);
    expect(expected).toEqual(["turma|insert=3"]);
  });

  it("a read that meets few rows per key leaves them as they are", async () => {
    const school = await createInstitution({ name: "Escola das poucas contagens", kind: "school" });
    await transaction((tx) => recordChanges(tx, [turma(school.id, "2026")]));
    await transaction((tx) => recordChanges(tx, [turma(school.id, "2026")]));
    const before = await countRows(school.id);
    await readMaintainedCounts({ institutionIds: [school.id], filters: { entities: [...ENTITY_NAMES], kinds: [...EVENT_KINDS] } });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await countRows(school.id)).toEqual(before);
  });
});
