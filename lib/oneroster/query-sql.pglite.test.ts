// Runs what the OneRoster query module compiles on a real PostgreSQL (PGlite, in memory): the SQL
// must be valid, each predicate must select the rows its rule says, and paging must be stable.
import { PGlite } from "@electric-sql/pglite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { compileFilter } from "./filter-compile";
import { parseFilter } from "./filter-parse";
import { pageOffsets } from "./links";
import { parsePaging } from "./paging";
import { parseSort } from "./sort";
import { TEST_USERS_FIELDS, TEST_USERS_TABLE } from "./test-field-map";

let db: PGlite;

const ROWS = [
  // id, status, date_last_modified, given, family, middle, enabled, birth, grade, org
  ["u1", "active", "2024-05-01T00:00:00Z", "Ana", "Silva", null, true, "2010-03-01", "5", "org-1"],
  ["u2", "active", "2024-05-01T10:30:00Z", "Bruno", "O'Brien", "Maria", false, null, "7.5", "org-1"],
  ["u3", "tobedeleted", "2024-04-30T23:59:59.999999Z", "Carla", "50%_off\\", "José", true, "2011-12-31", null, "org-2"],
  ["u4", "active", "2024-05-02T03:00:00+02:00", "Davi", "SILVA", null, true, null, "9", "org-2"],
  ["u5", "active", "2024-05-03T00:00:00Z", "Eva", "silvana", null, true, null, "3", "org-3"],
] as const;

beforeAll(async () => {
  db = new PGlite();
  await db.exec(TEST_USERS_TABLE);
  for (const row of ROWS) {
    await db.query(
      `INSERT INTO users (id, status, date_last_modified, given_name, family_name, middle_name, enabled, birth_date, grade, org_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [...row],
    );
  }
});

afterAll(async () => {
  await db.close();
});

/** The ids a filter selects, through the same path an endpoint takes. */
async function ids(filter: string, scope?: string): Promise<string[]> {
  const params: unknown[] = scope ? [scope] : [];
  const where = compileFilter(parseFilter(filter), TEST_USERS_FIELDS, params);
  const sql = `SELECT u.id FROM users u WHERE ${scope ? "u.org_id = $1 AND " : ""}${where} ORDER BY u.id`;
  const result = await db.query<{ id: string }>(sql, params);
  return result.rows.map((row) => row.id);
}

describe("compiled filters on PostgreSQL", () => {
  it("= on a string is exact and case-sensitive", async () => {
    expect(await ids("familyName='Silva'")).toEqual(["u1"]);
  });

  it("~ is a case-insensitive contains", async () => {
    expect(await ids("familyName~'silva'")).toEqual(["u1", "u4", "u5"]);
  });

  it("~ matches %, _, \\ and ' literally", async () => {
    expect(await ids("familyName~'%'")).toEqual(["u3"]);
    expect(await ids("familyName~'_'")).toEqual(["u3"]);
    expect(await ids("familyName~'\\'")).toEqual(["u3"]);
    expect(await ids("familyName~''''")).toEqual(["u2"]);
    expect(await ids("familyName='O''Brien'")).toEqual(["u2"]);
  });

  it("!= includes rows where the field is null", async () => {
    expect(await ids("middleName!='Maria'")).toEqual(["u1", "u3", "u4", "u5"]);
    // What a plain <> would have answered:
    const plain = await db.query<{ id: string }>("SELECT id FROM users WHERE middle_name <> 'Maria' ORDER BY id");
    expect(plain.rows.map((row) => row.id)).toEqual(["u3"]);
  });

  it("ordering predicates exclude rows where the field is null", async () => {
    expect(await ids("grade<'100'")).toEqual(["u1", "u2", "u4", "u5"]);
    expect(await ids("grade>='7.5'")).toEqual(["u2", "u4"]);
  });

  it("a date alone on a datetime field is the instant that UTC day starts", async () => {
    expect(await ids("dateLastModified>='2024-05-01'")).toEqual(["u1", "u2", "u4", "u5"]);
    expect(await ids("dateLastModified>'2024-05-01'")).toEqual(["u2", "u4", "u5"]);
    expect(await ids("dateLastModified='2024-05-01'")).toEqual(["u1"]);
    expect(await ids("dateLastModified<'2024-05-01'")).toEqual(["u3"]);
  });

  it("datetimes compare as instants, offsets and microseconds included", async () => {
    expect(await ids("dateLastModified<'2024-05-02T02:00:00+02:00'")).toEqual(["u1", "u2", "u3"]);
    expect(await ids("dateLastModified='2024-05-02T01:00:00Z'")).toEqual(["u4"]);
    expect(await ids("dateLastModified>'2024-04-30T23:59:59.999998Z' AND dateLastModified<'2024-05-01'")).toEqual(["u3"]);
    expect(await ids("dateLastModified>='2024-05-02T01:00:00'")).toEqual(["u4", "u5"]);
  });

  it("date, number, boolean and enum fields compare with their own types", async () => {
    expect(await ids("birthDate<'2011-01-01'")).toEqual(["u1"]);
    expect(await ids("birthDate!='2010-03-01'")).toEqual(["u2", "u3", "u4", "u5"]);
    expect(await ids("enabledUser='false'")).toEqual(["u2"]);
    expect(await ids("status='tobedeleted'")).toEqual(["u3"]);
    expect(await ids("status!='active'")).toEqual(["u3"]);
  });

  it("a dotted field filters on the joined expression", async () => {
    expect(await ids("primaryOrg.sourcedId='org-2'")).toEqual(["u3", "u4"]);
  });

  it("AND binds tighter than OR", async () => {
    expect(await ids("status='active' AND primaryOrg.sourcedId='org-2' OR givenName='Ana'")).toEqual(["u1", "u4"]);
    expect(await ids("givenName='Ana' OR status='active' AND primaryOrg.sourcedId='org-2'")).toEqual(["u1", "u4"]);
  });

  it("a filter's OR cannot escape the caller's own conditions", async () => {
    expect(await ids("primaryOrg.sourcedId='org-2' OR primaryOrg.sourcedId='org-3'", "org-1")).toEqual([]);
    expect(await ids("givenName='Ana' OR givenName='Davi'", "org-1")).toEqual(["u1"]);
  });

  it("SQL injection attempts stay values: they match nothing and change nothing", async () => {
    expect(await ids("familyName='x''; DROP TABLE users; --'")).toEqual([]);
    expect(await ids("familyName='x'' OR ''1''=''1'")).toEqual([]);
    expect(await ids("familyName~''' OR 1=1 --'")).toEqual([]);
    expect(await ids("dateLastModified>'2024-01-01' OR givenName='x''); DELETE FROM users; --'")).toEqual(["u1", "u2", "u3", "u4", "u5"]);
    const count = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM users");
    expect(count.rows[0]!.n).toBe(ROWS.length);
  });
});

describe("sort and paging on PostgreSQL", () => {
  const BULK = 57;

  beforeAll(async () => {
    // Rows that tie on the sort key: only the tiebreaker orders them.
    await db.query(
      `INSERT INTO users (id, status, date_last_modified, given_name, family_name, enabled, org_id)
       SELECT 'b' || lpad(n::text, 3, '0'), 'active', '2024-01-01Z', 'Same', 'Same', true, 'bulk'
       FROM generate_series(1, $1::int) AS n ORDER BY random()`,
      [BULK],
    );
  });

  async function page(sort: string | null, orderBy: string | null, limit: string, offset: string): Promise<{ ids: string[]; total: number }> {
    const params: unknown[] = ["bulk"];
    const where = `u.org_id = $1 AND ${compileFilter(parseFilter("givenName='Same'"), TEST_USERS_FIELDS, params)}`;
    const paging = parsePaging(limit, offset, { maxLimit: 20 });
    const orderSql = parseSort(sort, orderBy, TEST_USERS_FIELDS, "u.id");
    const rows = await db.query<{ id: string }>(
      `SELECT u.id FROM users u WHERE ${where} ORDER BY ${orderSql} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, paging.limit, paging.offset],
    );
    const total = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM users u WHERE ${where}`, params);
    return { ids: rows.rows.map((row) => row.id), total: total.rows[0]!.n };
  }

  async function walk(sort: string | null, orderBy: string | null, limit: number): Promise<string[]> {
    const seen: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const result = await page(sort, orderBy, String(limit), String(offset));
      seen.push(...result.ids);
      offset = pageOffsets({ limit, offset, total: result.total }).next;
    }
    return seen;
  }

  it("following next visits every tied row exactly once, in tiebreaker order", async () => {
    const expected = Array.from({ length: BULK }, (_, i) => `b${String(i + 1).padStart(3, "0")}`);
    expect(await walk("familyName", null, 10)).toEqual(expected);
    expect(await walk("familyName", "desc", 7)).toEqual([...expected].reverse());
    expect(await walk(null, null, 20)).toEqual(expected);
  });

  it("the same page asked twice comes back the same", async () => {
    const first = await page("familyName", "asc", "10", "30");
    const again = await page("familyName", "asc", "10", "30");
    expect(again).toEqual(first);
    expect(first.total).toBe(BULK);
  });

  it("a limit above maxLimit is served as maxLimit", async () => {
    expect((await page(null, null, "500", "0")).ids).toHaveLength(20);
  });
});
