import { describe, expect, it } from "vitest";
import { formatInZone, zonedTimeToInstant, zoneOffsetMs } from "./time-zone";

const t = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0) => ({ year, month, day, hour, minute, second });

describe("wall-clock time in the hub's zone → instant", () => {
  it("America/Sao_Paulo today has no DST: UTC-3 all year", () => {
    expect(zonedTimeToInstant(t(2026, 1, 15, 10), "America/Sao_Paulo").toISOString()).toBe("2026-01-15T13:00:00.000Z");
    expect(zonedTimeToInstant(t(2026, 7, 15, 10), "America/Sao_Paulo").toISOString()).toBe("2026-07-15T13:00:00.000Z");
  });

  it("Sao Paulo summer time of 2018/19 (UTC-2) is honoured", () => {
    expect(zonedTimeToInstant(t(2019, 1, 10, 12), "America/Sao_Paulo").toISOString()).toBe("2019-01-10T14:00:00.000Z");
  });

  it("a skipped wall time (clocks forward at 00:00 on 2018-11-04) moves forward by the gap", () => {
    // 00:30 does not exist; compatible disambiguation gives 01:30 -02:00.
    expect(zonedTimeToInstant(t(2018, 11, 4, 0, 30), "America/Sao_Paulo").toISOString()).toBe("2018-11-04T03:30:00.000Z");
    expect(zonedTimeToInstant(t(2018, 11, 4, 1, 0), "America/Sao_Paulo").toISOString()).toBe("2018-11-04T03:00:00.000Z");
  });

  it("a repeated wall time (clocks back at 00:00 on 2019-02-17) is its earlier instant", () => {
    // 23:30 on the 16th happens twice: first at -02:00 (01:30Z), then at -03:00 (02:30Z).
    expect(zonedTimeToInstant(t(2019, 2, 16, 23, 30), "America/Sao_Paulo").toISOString()).toBe("2019-02-17T01:30:00.000Z");
  });

  it("New York: spring gap and autumn overlap", () => {
    expect(zonedTimeToInstant(t(2026, 3, 8, 2, 30), "America/New_York").toISOString()).toBe("2026-03-08T07:30:00.000Z");
    expect(zonedTimeToInstant(t(2026, 11, 1, 1, 30), "America/New_York").toISOString()).toBe("2026-11-01T05:30:00.000Z");
  });
});

describe("instant → ISO 8601 with the zone's offset", () => {
  it("formats with milliseconds and ±HH:MM", () => {
    expect(formatInZone(new Date("2026-03-01T11:00:00.123Z"), "America/Sao_Paulo")).toBe("2026-03-01T08:00:00.123-03:00");
    expect(formatInZone(new Date("2019-01-10T14:00:00Z"), "America/Sao_Paulo")).toBe("2019-01-10T12:00:00.000-02:00");
    expect(formatInZone(new Date("2026-03-01T11:00:00Z"), "UTC")).toBe("2026-03-01T11:00:00.000+00:00");
    expect(formatInZone(new Date("2026-03-01T11:00:00Z"), "Asia/Kolkata")).toBe("2026-03-01T16:30:00.000+05:30");
  });

  it("is exact on both sides of a transition (the slice cache never straddles one)", () => {
    const before = new Date("2026-03-08T06:59:59.999Z");
    const after = new Date("2026-03-08T07:00:00.000Z");
    expect(formatInZone(before, "America/New_York")).toBe("2026-03-08T01:59:59.999-05:00");
    expect(formatInZone(after, "America/New_York")).toBe("2026-03-08T03:00:00.000-04:00");
    expect(zoneOffsetMs(before.getTime(), "America/New_York")).toBe(-5 * 3600_000);
  });

  it("round-trips through zonedTimeToInstant", () => {
    const instant = zonedTimeToInstant(t(2026, 5, 20, 17, 45, 9), "America/Sao_Paulo");
    expect(formatInZone(instant, "America/Sao_Paulo")).toBe("2026-05-20T17:45:09.000-03:00");
  });
});

describe("formatInZone's calendar arithmetic", () => {
  it("agrees with Date from 1900 to 2100 (a week and an odd hour apart), in several zones", () => {
    const zones = ["UTC", "America/Sao_Paulo", "Asia/Kolkata", "America/New_York", "Pacific/Chatham"];
    const start = Date.UTC(1900, 0, 1);
    const end = Date.UTC(2100, 11, 31);
    for (let ms = start, i = 0; ms <= end; ms += 7 * 86_400_000 + 3_601_001, i++) {
      const zone = zones[i % zones.length]!;
      const offset = zoneOffsetMs(ms, zone);
      if (offset % 60_000 !== 0) continue;
      const expected = new Date(ms + offset).toISOString().slice(0, 23);
      expect(formatInZone(ms, zone).slice(0, 23)).toBe(expected);
    }
  });

  it("takes epoch milliseconds with a fraction (microseconds from the database) and drops it", () => {
    expect(formatInZone(Date.parse("2026-03-01T11:00:00.123Z") + 0.999, "America/Sao_Paulo")).toBe("2026-03-01T08:00:00.123-03:00");
    expect(formatInZone(Date.parse("1969-12-31T23:59:59.999Z") + 0.5, "UTC")).toBe("1969-12-31T23:59:59.999+00:00");
  });

  it("falls back to UTC for years that have no four-digit form", () => {
    expect(formatInZone(Date.UTC(12000, 0, 1), "UTC")).toBe(new Date(Date.UTC(12000, 0, 1)).toISOString());
  });
});
