import { describe, expect, it } from "vitest";
import { parseOrderBy, parseSort } from "./sort";
import { OneRosterError } from "./status";
import { refusedWith } from "./test-refusal";
import { TEST_USERS_FIELDS } from "./test-field-map";

const refused = (run: () => unknown): OneRosterError => refusedWith("invaliddata", run);

describe("parseSort", () => {
  it("sorts by the field, then by the tiebreaker, ascending by default", () => {
    expect(parseSort("familyName", null, TEST_USERS_FIELDS, "u.id")).toBe("u.family_name ASC, u.id ASC");
  });

  it("applies orderBy=desc to the tiebreaker too, so the order is the exact reverse", () => {
    expect(parseSort("familyName", "desc", TEST_USERS_FIELDS, "u.id")).toBe("u.family_name DESC, u.id DESC");
  });

  it("uses the tiebreaker alone without sort, still honouring orderBy", () => {
    expect(parseSort(null, null, TEST_USERS_FIELDS, "u.id")).toBe("u.id ASC");
    expect(parseSort(undefined, "desc", TEST_USERS_FIELDS, "u.id")).toBe("u.id DESC");
  });

  it("does not repeat the tiebreaker when sorting by it", () => {
    expect(parseSort("sourcedId", "asc", TEST_USERS_FIELDS, "u.id")).toBe("u.id ASC");
  });

  it("sorts by a dotted field the map lists", () => {
    expect(parseSort("primaryOrg.sourcedId", null, TEST_USERS_FIELDS, "u.id")).toBe("u.org_id ASC, u.id ASC");
  });

  it("ignores whitespace around the field name", () => {
    expect(parseSort(" familyName ", null, TEST_USERS_FIELDS, "u.id")).toBe("u.family_name ASC, u.id ASC");
  });

  it("refuses an unknown sort field with invaliddata (1.2 has no invalid_sort_field)", () => {
    expect(refused(() => parseSort("nickname", null, TEST_USERS_FIELDS, "u.id")).description).toBe("Unknown sort field 'nickname'.");
    refused(() => parseSort("constructor", null, TEST_USERS_FIELDS, "u.id"));
    refused(() => parseSort("familyName,givenName", null, TEST_USERS_FIELDS, "u.id"));
    refused(() => parseSort("u.family_name; DROP TABLE users", null, TEST_USERS_FIELDS, "u.id"));
  });

  it("refuses a field the map marks as not sortable", () => {
    expect(refused(() => parseSort("secret", null, TEST_USERS_FIELDS, "u.id")).description).toMatch(/cannot be used to sort/);
  });

  it("refuses an empty sort", () => {
    refused(() => parseSort("", null, TEST_USERS_FIELDS, "u.id"));
  });

  it.each(["ASC", "descending", "", "asc;"])("refuses orderBy %j", (orderBy) => {
    expect(refused(() => parseOrderBy(orderBy)).description).toMatch(/expected 'asc' or 'desc'/);
  });
});
