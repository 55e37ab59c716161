import { describe, expect, it } from "vitest";
import { asOneRosterError, CODE_MINOR_STATUS, OneRosterError, quoteInput, statusPayload } from "./status";

describe("OneRoster status payload", () => {
  it("is imsx_StatusInfoDType at the top level, with one TargetEndSystem code minor", () => {
    const error = new OneRosterError("invalid_filter_field", "Unknown filter field 'x'.");
    expect(statusPayload(error)).toEqual({
      imsx_codeMajor: "failure",
      imsx_severity: "error",
      imsx_description: "Unknown filter field 'x'.",
      imsx_CodeMinor: {
        imsx_codeMinorField: [{ imsx_codeMinorFieldName: "TargetEndSystem", imsx_codeMinorFieldValue: "invalid_filter_field" }],
      },
    });
  });

  it("has exactly the keys the schema allows (additionalProperties: false)", () => {
    const payload = statusPayload(new OneRosterError("forbidden"));
    expect(Object.keys(payload).sort()).toEqual(["imsx_CodeMinor", "imsx_codeMajor", "imsx_description", "imsx_severity"]);
    expect(Object.keys(payload.imsx_CodeMinor!)).toEqual(["imsx_codeMinorField"]);
  });

  it.each([
    ["invalid_filter_field", 400],
    ["invalid_selection_field", 400],
    ["invaliddata", 400],
    ["unauthorisedrequest", 401],
    ["forbidden", 403],
    ["unknownobject", 404],
    ["server_busy", 429],
    ["internal_server_error", 500],
  ] as const)("maps %s to HTTP %i with failure/error", (codeMinor, status) => {
    const error = new OneRosterError(codeMinor);
    expect(error.httpStatus).toBe(status);
    expect(CODE_MINOR_STATUS[codeMinor]).toBe(status);
    expect([error.codeMajor, error.severity]).toEqual(["failure", "error"]);
  });

  it("says 'Unknown Object' for an unknown object, as the 404 response asks", () => {
    expect(new OneRosterError("unknownobject").description).toBe("Unknown Object");
  });

  it("turns any other error into an internal_server_error that does not repeat its message", () => {
    const error = asOneRosterError(new Error('relation "users" does not exist at character 15'));
    expect(error.codeMinor).toBe("internal_server_error");
    expect(error.httpStatus).toBe(500);
    expect(error.description).not.toMatch(/relation|users/);
    const ours = new OneRosterError("forbidden");
    expect(asOneRosterError(ours)).toBe(ours);
  });

  it("bounds and flattens client input quoted in a description", () => {
    expect(quoteInput("a\nb")).toBe("'a?b'");
    expect(quoteInput("x".repeat(100))).toBe(`'${"x".repeat(60)}…'`);
  });
});
