import { describe, expect, it } from "vitest";
import { compileFilter, modifiedSince, onlyEquals, pinsField } from "./filter-compile";
import { parseFilter } from "./filter-parse";
import { OneRosterError } from "./status";
import { refusedWith } from "./test-refusal";
import { TEST_USERS_FIELDS } from "./test-field-map";

function compile(text: string, params: unknown[] = []): { sql: string; params: unknown[] } {
  const sql = compileFilter(parseFilter(text), TEST_USERS_FIELDS, params);
  return { sql, params };
}

const refused = (text: string): OneRosterError => refusedWith("invalid_filter_field", () => compile(text));

describe("compileFilter", () => {
  it.each([
    ["familyName='Silva'", "(u.family_name = $1::text)"],
    ["familyName>'M'", "(u.family_name > $1::text)"],
    ["familyName>='M'", "(u.family_name >= $1::text)"],
    ["familyName<'M'", "(u.family_name < $1::text)"],
    ["familyName<='M'", "(u.family_name <= $1::text)"],
  ])("compiles %s to %s", (text, sql) => {
    expect(compile(text).sql).toBe(sql);
  });

  it("compares an id held as a uuid as a uuid, which its index finds; a value in no uuid form names no id", () => {
    const ids = { sourcedId: { sql: "u.id::text", uuidSql: "u.id", type: "string" as const, operators: ["=", "!="] as const } };
    const uuid = "0005ff1e-16df-41e9-a3c8-ce112c55a1e1";
    const idCompile = (text: string) => {
      const params: unknown[] = [];
      return { sql: compileFilter(parseFilter(text), ids, params), params };
    };
    expect(idCompile(`sourcedId='${uuid}'`)).toEqual({ sql: "(u.id = $1::uuid)", params: [uuid] });
    expect(idCompile(`sourcedId!='${uuid}'`)).toEqual({ sql: "(u.id IS DISTINCT FROM $1::uuid)", params: [uuid] });
    expect(idCompile("sourcedId='x'")).toEqual({ sql: "false", params: [] });
    expect(idCompile("sourcedId!='x'")).toEqual({ sql: "true", params: [] });
    expect(idCompile(`sourcedId='${uuid.toUpperCase()}'`)).toEqual({ sql: "false", params: [] });
  });

  it("compiles != to IS DISTINCT FROM, so rows without the field are included", () => {
    expect(compile("middleName!='Maria'")).toEqual({ sql: "(u.middle_name IS DISTINCT FROM $1::text)", params: ["Maria"] });
  });

  it("compiles ~ to a case-insensitive contains with LIKE wildcards escaped", () => {
    expect(compile("familyName~'50%_\\'")).toEqual({ sql: "(u.family_name ILIKE $1::text ESCAPE '\\')", params: ["%50\\%\\_\\\\%"] });
  });

  it("binds each type with its cast, converting the value", () => {
    expect(compile("dateLastModified>='2024-05-01'")).toEqual({
      sql: "(u.date_last_modified >= $1::timestamptz)",
      params: ["2024-05-01T00:00:00+00:00"],
    });
    expect(compile("birthDate<'2010-01-01'")).toEqual({ sql: "(u.birth_date < $1::date)", params: ["2010-01-01"] });
    expect(compile("grade>='5'")).toEqual({ sql: "(u.grade >= $1::numeric)", params: ["5"] });
    expect(compile("enabledUser='false'")).toEqual({ sql: "(u.enabled = $1::boolean)", params: [false] });
    expect(compile("status='active'")).toEqual({ sql: "(u.status = $1)", params: ["active"] });
  });

  it("maps a dotted field to its joined expression", () => {
    expect(compile("primaryOrg.sourcedId='org-1'")).toEqual({ sql: "(u.org_id = $1::text)", params: ["org-1"] });
  });

  it("parenthesises AND inside OR as parsed", () => {
    expect(compile("status='active' AND familyName='A' OR givenName='B'")).toEqual({
      sql: "(((u.status = $1) AND (u.family_name = $2::text)) OR (u.given_name = $3::text))",
      params: ["active", "A", "B"],
    });
  });

  it("wraps the whole expression, so a caller's AND cannot be escaped by the filter's OR", () => {
    const { sql } = compile("familyName='A' OR familyName='B'");
    expect(sql).toBe("((u.family_name = $1::text) OR (u.family_name = $2::text))");
    expect(`u.org_id = 'x' AND ${sql}`).toMatch(/AND \(\(.*\)\)$/);
  });

  it("numbers placeholders after the caller's own parameters", () => {
    expect(compile("familyName='A' AND givenName='B'", ["org-1"])).toEqual({
      sql: "((u.family_name = $2::text) AND (u.given_name = $3::text))",
      params: ["org-1", "A", "B"],
    });
  });

  it("keeps SQL injection attempts in the parameters only", () => {
    const attempts = [
      "x'; DROP TABLE users; --",
      "x' OR '1'='1",
      "x\\' OR 1=1 --",
      "$1",
      "' || (SELECT secret FROM users LIMIT 1) || '",
    ];
    for (const attempt of attempts) {
      const quoted = attempt.replaceAll("'", "''");
      const { sql, params } = compile(`familyName='${quoted}' OR givenName~'${quoted}'`);
      expect(sql).toBe("((u.family_name = $1::text) OR (u.given_name ILIKE $2::text ESCAPE '\\'))");
      expect(params[0]).toBe(attempt);
    }
  });

  it("leaves the caller's params untouched when a later predicate is refused", () => {
    const params: unknown[] = ["org-1"];
    expect(() => compileFilter(parseFilter("familyName='A' AND nope='x'"), TEST_USERS_FIELDS, params)).toThrow(OneRosterError);
    expect(params).toEqual(["org-1"]);
  });

  describe("refuses with invalid_filter_field", () => {
    it("an unknown field, naming it (the binding: 'Description should contain the supplied unknown field')", () => {
      expect(refused("nickname='x'").description).toBe("Unknown filter field 'nickname'.");
    });

    it.each(["constructor", "toString", "hasOwnProperty", "primaryOrg", "primaryOrg.name", "familyname"])(
      "the name %s, which is not an own field of the map",
      (field) => {
        expect(refused(`${field}='x'`).description).toMatch(/Unknown filter field/);
      },
    );

    it("a field named __proto__ (the parser refuses it; a hand-built tree is refused too)", () => {
      const ast = { kind: "predicate", field: "__proto__", operator: "=", value: "x" } as const;
      expect(() => compileFilter(ast, TEST_USERS_FIELDS, [])).toThrow("Unknown filter field '__proto__'.");
    });

    it("a field the map marks as not filterable", () => {
      expect(refused("secret='x'").description).toMatch(/cannot be used in a filter/);
    });

    it.each([
      ["status~'act'", /'~' cannot be used with 'status' \(enum\)/],
      ["status>'active'", /'>' cannot be used/],
      ["enabledUser<'true'", /'<' cannot be used/],
      ["dateLastModified~'2024'", /'~' cannot be used/],
      ["grade~'1'", /'~' cannot be used/],
    ])("a predicate the field's type has no meaning for: %s", (text, message) => {
      expect(refused(text).description).toMatch(message);
    });

    it.each([
      ["status='Active'", /one of active, tobedeleted/],
      ["dateLastModified>'2024-02-30'", /ISO 8601/],
      ["dateLastModified>''", /ISO 8601/],
      ["birthDate='2010-01-01T00:00:00Z'", /YYYY-MM-DD/],
      ["grade='five'", /decimal number/],
      ["enabledUser='yes'", /'true' or 'false'/],
    ])("a value of the wrong type: %s", (text, message) => {
      expect(refused(text).description).toMatch(message);
    });
  });
});

describe("modifiedSince", () => {
  const since = (filter: string) => modifiedSince(parseFilter(filter))?.toISOString() ?? null;

  it("is the bound of a delta read's predicate, > or >=, a date alone meaning its midnight UTC", () => {
    expect(since("dateLastModified>'2026-11-29T10:01:00.463Z'")).toBe("2026-11-29T10:01:00.463Z");
    expect(since("dateLastModified>='2026-11-29T07:01:00-03:00'")).toBe("2026-11-29T10:01:00.000Z");
    expect(since("dateLastModified>'2026-11-29'")).toBe("2026-11-29T00:00:00.000Z");
  });

  it("is never after the filter's own bound: microseconds are cut to the millisecond below", () => {
    expect(since("dateLastModified>'2026-11-29T10:01:00.463999Z'")).toBe("2026-11-29T10:01:00.463Z");
  });

  it("takes the latest of several ANDed bounds, beside other predicates", () => {
    expect(since("status='active' AND dateLastModified>'2026-01-01' AND dateLastModified>='2026-06-01T12:00:00Z' AND role='student'")).toBe("2026-06-01T12:00:00.000Z");
  });

  it("is null when a match may have any date: no lower bound, an upper one, another field, or a bound inside an OR", () => {
    expect(since("status='active'")).toBeNull();
    expect(since("dateLastModified<'2026-11-29'")).toBeNull();
    expect(since("dateLastModified!='2026-11-29'")).toBeNull();
    expect(since("dateLastModified>'2026-11-29' OR status='active'")).toBeNull();
    expect(since("status='active' OR dateLastModified>'2026-11-29' AND dateLastModified>'2026-11-28'")).toBeNull();
  });
});

describe("pinsField", () => {
  const pins = (filter: string) => pinsField(parseFilter(filter), "class.sourcedId");

  it("is an = on the field, alone or ANDed with others; never under an OR, never another operator", () => {
    expect(pins("class.sourcedId='a'")).toBe(true);
    expect(pins("role='student' AND class.sourcedId='a'")).toBe(true);
    expect(pins("class.sourcedId='a' OR role='student'")).toBe(false);
    expect(pins("class.sourcedId!='a'")).toBe(false);
    expect(pins("user.sourcedId='a'")).toBe(false);
  });
});

describe("onlyEquals", () => {
  it("is the value of a filter that is nothing but an = on the field", () => {
    expect(onlyEquals(parseFilter("roles.role='student'"), "roles.role")).toBe("student");
    expect(onlyEquals(parseFilter("roles.role!='student'"), "roles.role")).toBeNull();
    expect(onlyEquals(parseFilter("roles.role='student' AND givenName='Ana'"), "roles.role")).toBeNull();
    expect(onlyEquals(parseFilter("givenName='Ana'"), "roles.role")).toBeNull();
  });
});
