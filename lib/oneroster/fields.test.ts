import { describe, expect, it } from "vitest";
import { parseFields } from "./fields";
import { OneRosterError } from "./status";
import { refusedWith } from "./test-refusal";

const USER_FIELDS = ["sourcedId", "status", "dateLastModified", "givenName", "familyName", "roles"];

const refused = (run: () => unknown): OneRosterError => refusedWith("invalid_selection_field", run);

describe("parseFields", () => {
  it("returns null (every field) when the parameter is absent", () => {
    expect(parseFields(null, USER_FIELDS)).toBeNull();
    expect(parseFields(undefined, USER_FIELDS)).toBeNull();
    expect(parseFields([], USER_FIELDS)).toBeNull();
  });

  it("reads a comma-separated list, in the model's order, without duplicates", () => {
    expect(parseFields("familyName,sourcedId,familyName", USER_FIELDS)).toEqual(["sourcedId", "familyName"]);
  });

  it("reads repeated parameters (the 1.2 OpenAPI's form-style array) and mixes both forms", () => {
    expect(parseFields(["givenName", "sourcedId,roles"], USER_FIELDS)).toEqual(["sourcedId", "givenName", "roles"]);
  });

  it("ignores whitespace around names", () => {
    expect(parseFields(" sourcedId , givenName ", USER_FIELDS)).toEqual(["sourcedId", "givenName"]);
  });

  it("refuses an unknown field with invalid_selection_field, naming it", () => {
    expect(refused(() => parseFields("sourcedId,nickname", USER_FIELDS)).description).toBe("Unknown field 'nickname'.");
    expect(refused(() => parseFields("a,b", USER_FIELDS)).description).toBe("Unknown fields 'a', 'b'.");
  });

  it("refuses nested names: only top-level fields are selectable", () => {
    refused(() => parseFields("roles.org", USER_FIELDS));
  });

  it("refuses names that are not own entries of the list", () => {
    refused(() => parseFields("constructor,length", USER_FIELDS));
  });

  it.each(["", ",", "sourcedId,", ",sourcedId", "sourcedId,,givenName", " "])("refuses the empty item in %j", (fields) => {
    expect(refused(() => parseFields(fields, USER_FIELDS)).description).toMatch(/empty field name/);
  });

  it("refuses an oversized parameter before splitting it", () => {
    expect(refused(() => parseFields("a,".repeat(5000), USER_FIELDS)).description).toMatch(/longer than/);
  });
});
