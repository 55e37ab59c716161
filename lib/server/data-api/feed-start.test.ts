// min_date's ordered scan starts where the events from the date begin (feedStartSql), not at the
// feed clock's floor: it reads no event of a transaction that was in flight at the date, however
// many that transaction wrote (issue #24, "buffers do not grow"). Runs on PGlite and PostgreSQL.
import { describe, expect, it } from "vitest";
import { database } from "@/lib/server/db/database";
import { transaction } from "@/lib/server/db/transaction";
import { createInstitution } from "@/lib/server/institutions/create-institution";
import { recordChanges, type ChangeInput } from "@/lib/server/school-data/record-change";
import { ENTITY_NAMES, EVENT_KINDS } from "@/lib/validations/data-api";
import { setupTestDatabase } from "@/test/database";
import { waitForVisibleEvents } from "@/test/fixtures/data-api";
import { buildEventPageQuery, queryEvents, type TEventFilters } from "./query-events";

setupTestDatabase();

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const turma = (institutionId: string): ChangeInput => {
  const id = crypto.randomUUID();
  return { institutionId, entity: "turma", kind: "insert", record: { id, instituicaoId: institutionId }, profileIds: [], periodCode: "2026" };
};

type TPlanNode = Record<string, unknown> & { Plans?: TPlanNode[] };

/** The ChangeEvent rows the statement's scans read: returned or thrown away by a filter (EXPLAIN ANALYZE), times loops. */
function eventRowsRead(node: TPlanNode): number {
  const own = node["Relation Name"] === "ChangeEvent" ? (Number(node["Actual Rows"] ?? 0) + Number(node["Rows Removed by Filter"] ?? 0)) * Number(node["Actual Loops"] ?? 1) : 0;
  return own + (node.Plans ?? []).reduce((n, child) => n + eventRowsRead(child), 0);
}

describe("min_date: the scan starts after the transactions in flight at the date", () => {
  it("skips a 400-event transaction that began before the date and committed after it, and returns what the plain query returns", async () => {
    const school = await createInstitution({ name: "Escola do import longo", kind: "school" });
    const ids = [school.id];
    // A long write (a CSV import, say): it begins before `from`, takes its txid after the last
    // feed clock entry before `from`, and writes 400 events stamped with its start.
    let from = new Date(0);
    await transaction(async (tx) => {
      const [row] = await tx.$queryRawUnsafe<{ start: Date }[]>(`SELECT now() AS start`);
      from = new Date(row!.start.getTime() + 50);
      await sleep(120);
      await recordChanges(tx, Array.from({ length: 400 }, () => turma(school.id)));
    });
    const later = [turma(school.id), turma(school.id), turma(school.id)];
    await transaction((tx) => recordChanges(tx, later));
    await waitForVisibleEvents();
    // A read with min_date returns only events older than a second (decision 013's time-safe cut).
    await sleep(1_100);

    const filters: TEventFilters = { institutionIds: ids, entities: [...ENTITY_NAMES], kinds: [...EVENT_KINDS], from };
    const page = await queryEvents({ filters, limit: 1000 });
    const plain = await database().sql.query<{ id: string }>(
      `SELECT e.id FROM "ChangeEvent" e WHERE e."institutionId" = $1::uuid AND e."occurredAt" >= $2::timestamptz ORDER BY e.txid, e.seq`,
      [school.id, from.toISOString()],
    );
    expect(page.rows.map((row) => row.id)).toEqual(plain.map((row) => row.id));
    expect(page.rows.map((row) => JSON.parse(row.record).id)).toEqual(later.map((change) => change.record.id));

    // The long transaction's events are neither returned nor read: with the floor alone, the scan
    // passed over all 400 of them. The plan is the one a large log gets, an ordered scan cut by
    // the limit (a table this small could be read by date and sorted instead).
    const { sql, params } = buildEventPageQuery({ filters, limit: 1000 });
    const [explained] = await database().sql.transaction(async (tx) => {
      await tx.exec(`SET LOCAL enable_sort = off`);
      return tx.query<{ "QUERY PLAN": [{ Plan: TPlanNode }] | string }>(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
    });
    const plan = explained!["QUERY PLAN"];
    const root = (typeof plan === "string" ? (JSON.parse(plan) as [{ Plan: TPlanNode }]) : plan)[0].Plan;
    expect(eventRowsRead(root)).toBeLessThan(50);
  });
});
