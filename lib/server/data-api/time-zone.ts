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
const offsetCaches = new Map<string, Map<number, number>>();

export function zoneOffsetMs(ms: number, timeZone: string): number {
  let cache = offsetCaches.get(timeZone);
  if (!cache) offsetCaches.set(timeZone, (cache = new Map()));
  const slice = Math.floor(ms / SLICE_MS);
  const cached = cache.get(slice);
  if (cached !== undefined) return cached;
  const start = computeOffset(slice * SLICE_MS, timeZone);
  const end = computeOffset(slice * SLICE_MS + SLICE_MS - 1, timeZone);
  if (start !== end) return computeOffset(ms, timeZone);
  if (cache.size > 50_000) cache.clear();
  cache.set(slice, start);
  return start;
}

const pad = (n: number, width = 2) => String(n).padStart(width, "0");
const DAY_MS = 86_400_000;

/**
 * Year, month and day of a day count since 1970-01-01 in the proleptic Gregorian calendar
 * (H. Hinnant, "chrono-Compatible Low-Level Date Algorithms", civil_from_days). Plain arithmetic:
 * inside a Next.js server every `new Date` goes through a patched constructor, and a page formats
 * thousands of timestamps.
 */
function civilFromDays(days: number): [year: number, month: number, day: number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365);
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}

/**
 * ISO 8601 with milliseconds and the zone's offset, e.g. 2026-03-01T08:00:00.000-03:00.
 * `instant` is a Date or milliseconds since the epoch (whole or not: the fraction is dropped).
 */
export function formatInZone(instant: Date | number, timeZone: string): string {
  const ms = Math.floor(typeof instant === "number" ? instant : instant.getTime());
  const offset = zoneOffsetMs(ms, timeZone);
  const local = ms + offset;
  const days = Math.floor(local / DAY_MS);
  const [year, month, day] = civilFromDays(days);
  // Offsets with seconds (local mean time before ~1914) have no ±HH:MM form, and years outside
  // 0000–9999 no four-digit one: both fall back to UTC as toISOString writes it.
  if (offset % 60_000 !== 0 || year < 0 || year > 9999) return new Date(ms).toISOString();
  const inDay = local - days * DAY_MS;
  const minutes = Math.abs(offset) / 60_000;
  return (
    `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(Math.floor(inDay / 3_600_000))}:${pad(Math.floor(inDay / 60_000) % 60)}:` +
    `${pad(Math.floor(inDay / 1000) % 60)}.${pad(inDay % 1000, 3)}${offset < 0 ? "-" : "+"}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`
  );
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
