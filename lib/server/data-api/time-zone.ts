// Wall-clock time in the hub's time zone (HUB_TIME_ZONE) ↔ instants, with Intl only (no tz
// library). Query dates (min_date, max_date) are wall-clock times there; response timestamps are
// ISO 8601 with that zone's offset at the instant.
import type { TLocalDateTime } from "@/lib/validations/data-api";

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      era: "short",
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Throws a RangeError for a zone Intl does not know (env validation should have caught it). */
export function assertTimeZone(timeZone: string): void {
  formatter(timeZone);
}

/** UTC offset (ms, a whole number of seconds) of `timeZone` at the instant `ms`. */
function computeOffset(ms: number, timeZone: string): number {
  const second = Math.floor(ms / 1000) * 1000;
  const parts: Record<string, string> = {};
  for (const p of formatter(timeZone).formatToParts(new Date(second))) parts[p.type] = p.value;
  const year = parts.era === "BC" ? 1 - Number(parts.year) : Number(parts.year);
  const wall = new Date(0);
  wall.setUTCFullYear(year, Number(parts.month) - 1, Number(parts.day));
  wall.setUTCHours(Number(parts.hour), Number(parts.minute), Number(parts.second), 0);
  return wall.getTime() - second;
}

// formatToParts costs microseconds; a page formats up to 10,000 timestamps, mostly close together.
// Offsets are cached per 15-minute slice, and only for slices with no transition inside them
// (same offset at both ends), so the cache never changes a result.
const SLICE_MS = 15 * 60 * 1000;
const offsetCache = new Map<string, number>();

export function zoneOffsetMs(ms: number, timeZone: string): number {
  const slice = Math.floor(ms / SLICE_MS);
  const key = `${timeZone}|${slice}`;
  const cached = offsetCache.get(key);
  if (cached !== undefined) return cached;
  const start = computeOffset(slice * SLICE_MS, timeZone);
  const end = computeOffset(slice * SLICE_MS + SLICE_MS - 1, timeZone);
  if (start !== end) return computeOffset(ms, timeZone);
  if (offsetCache.size > 50_000) offsetCache.clear();
  offsetCache.set(key, start);
  return start;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");

/** ISO 8601 with milliseconds and the zone's offset, e.g. 2026-03-01T08:00:00.000-03:00. */
export function formatInZone(instant: Date, timeZone: string): string {
  const ms = instant.getTime();
  const offset = zoneOffsetMs(ms, timeZone);
  // Offsets with seconds (local mean time before ~1914) have no ±HH:MM form: fall back to UTC.
  if (offset % 60_000 !== 0) return instant.toISOString();
  const local = new Date(ms + offset).toISOString().slice(0, 23);
  const minutes = Math.abs(offset) / 60_000;
  return `${local}${offset < 0 ? "-" : "+"}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/**
 * The instant a wall-clock time in `timeZone` denotes. DST is resolved like Temporal's
 * "compatible" disambiguation: a repeated time (clocks set back) is its earlier instant; a
 * skipped time (clocks set forward) moves forward by the gap (00:30 in a 00:00→01:00 gap is 01:30).
 */
export function zonedTimeToInstant(t: TLocalDateTime, timeZone: string): Date {
  const wall = new Date(0);
  wall.setUTCFullYear(t.year, t.month - 1, t.day);
  wall.setUTCHours(t.hour, t.minute, t.second, 0);
  const wallMs = wall.getTime();
  const DAY = 86_400_000;
  const before = computeOffset(wallMs - DAY, timeZone);
  const after = computeOffset(wallMs + DAY, timeZone);
  const candidates = [...new Set([wallMs - before, wallMs - after])]
    .filter((ms) => computeOffset(ms, timeZone) === wallMs - ms)
    .sort((a, b) => a - b);
  if (candidates.length) return new Date(candidates[0]!);
  // In a gap: the offset in force before the transition lands after it, shifted by the gap.
  return new Date(wallMs - before);
}
