import { describe, expect, it } from "vitest";
import { booleanValue, containsPattern, dateTimeValue, dateValue, enumValue, numberValue } from "./filter-values";
import { OneRosterError } from "./status";
import { refusedWith } from "./test-refusal";

const refused = (run: () => unknown): OneRosterError => refusedWith("invalid_filter_field", run);

describe("filter values", () => {
  describe("datetime", () => {
    it.each([
      ["2024-05-01T13:45:30Z", "2024-05-01T13:45:30+00:00"],
      ["2024-05-01T13:45:30.123456Z", "2024-05-01T13:45:30.123456+00:00"],
      ["2024-05-01T13:45:30.5-03:00", "2024-05-01T13:45:30.5-03:00"],
      ["2024-05-01T13:45:30+0530", "2024-05-01T13:45:30+05:30"],
      ["2024-05-01T13:45:30+05", "2024-05-01T13:45:30+05:00"],
      ["2024-05-01T13:45Z", "2024-05-01T13:45:00+00:00"],
      ["2024-05-01t13:45:30z", "2024-05-01T13:45:30+00:00"],
      ["2024-05-01 13:45:30Z", "2024-05-01T13:45:30+00:00"],
    ])("reads %s as timestamptz %s", (value, canonical) => {
      expect(dateTimeValue("dateLastModified", value)).toBe(canonical);
    });

    it("reads a date-time without an offset as UTC", () => {
      expect(dateTimeValue("dateLastModified", "2024-05-01T13:45:30")).toBe("2024-05-01T13:45:30+00:00");
    });

    it("reads a date alone as the instant that day starts in UTC", () => {
      expect(dateTimeValue("dateLastModified", "2024-05-01")).toBe("2024-05-01T00:00:00+00:00");
    });

    it("accepts 29 February in a leap year only", () => {
      expect(dateTimeValue("d", "2024-02-29")).toBe("2024-02-29T00:00:00+00:00");
      expect(dateTimeValue("d", "2000-02-29T00:00:00Z")).toBe("2000-02-29T00:00:00+00:00");
      refused(() => dateTimeValue("d", "2023-02-29"));
      refused(() => dateTimeValue("d", "1900-02-29T00:00:00Z"));
    });

    it.each([
      "",
      "yesterday",
      "2024-5-1",
      "20240501",
      "2024-13-01",
      "2024-04-31",
      "0000-01-01",
      "2024-05-01T24:00:00Z",
      "2024-05-01T23:60:00Z",
      "2024-05-01T23:59:60Z",
      "2024-05-01T23:59:59.1234567Z",
      "2024-05-01T23:59:59+15:00",
      "2024-05-01T23:59:59+05:60",
      "2024-05-01Z",
      "2024-05-01T10",
      "2024-05-01T10:00:00 Z",
      " 2024-05-01",
      "2024-05-01T10:00:00Z'; DROP TABLE users; --",
    ])("refuses %j", (value) => {
      expect(refused(() => dateTimeValue("dateLastModified", value)).description).toMatch(/dateLastModified.*ISO 8601/);
    });
  });

  describe("date", () => {
    it("accepts YYYY-MM-DD only", () => {
      expect(dateValue("birthDate", "2010-12-31")).toBe("2010-12-31");
      refused(() => dateValue("birthDate", "2010-12-31T00:00:00Z"));
      refused(() => dateValue("birthDate", "2010-02-30"));
      refused(() => dateValue("birthDate", "31/12/2010"));
    });
  });

  describe("number", () => {
    it.each(["0", "7", "-3", "12.5", "-0.25", "123456789012345"])("accepts %s", (value) => {
      expect(numberValue("grade", value)).toBe(value);
    });

    it.each(["", "01", "1e3", "+1", "1.", ".5", "NaN", "Infinity", "0x10", "1 ", "1234567890123456"])("refuses %j", (value) => {
      refused(() => numberValue("grade", value));
    });
  });

  describe("boolean", () => {
    it("accepts true and false only", () => {
      expect(booleanValue("enabledUser", "true")).toBe(true);
      expect(booleanValue("enabledUser", "false")).toBe(false);
      for (const value of ["TRUE", "1", "yes", ""]) refused(() => booleanValue("enabledUser", value));
    });
  });

  describe("enum", () => {
    it("accepts the field's vocabulary and refuses anything else", () => {
      expect(enumValue("status", "active", ["active", "tobedeleted"])).toBe("active");
      expect(refused(() => enumValue("status", "Active", ["active", "tobedeleted"])).description).toMatch(/one of active, tobedeleted/);
    });

    it("accepts any value when the map gives no vocabulary", () => {
      expect(enumValue("role", "ext:tutor", undefined)).toBe("ext:tutor");
    });
  });

  describe("contains pattern", () => {
    it("escapes LIKE wildcards and the escape character so they match themselves", () => {
      expect(containsPattern("50%_off\\")).toBe("%50\\%\\_off\\\\%");
      expect(containsPattern("plain")).toBe("%plain%");
    });
  });
});
