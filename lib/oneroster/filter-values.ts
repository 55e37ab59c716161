// Filter values, checked against the type of the field they are compared with and turned into the
// text PostgreSQL parses for that type. A value that does not fit is the client's error (a 400),
// never a statement PostgreSQL rejects (a 500).

import { OneRosterError, quoteInput } from "./status";

function valueError(field: string, value: string, expected: string): OneRosterError {
  return new OneRosterError("invalid_filter_field", `Invalid value ${quoteInput(value)} for ${quoteInput(field)}: expected ${expected}.`);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Years 1–9999 only: PostgreSQL rejects year 0, and 5-digit years are not ISO 8601 basic form. */
function validCalendarDate(y: string, m: string, d: string): boolean {
  const year = Number(y);
  const month = Number(m);
  const day = Number(d);
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,6}))?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/;

/** A OneRoster `date` field (academicSession startDate, birthDate): exactly YYYY-MM-DD. */
export function dateValue(field: string, value: string): string {
  const m = DATE.exec(value);
  if (!m || !validCalendarDate(m[1]!, m[2]!, m[3]!)) throw valueError(field, value, "a date YYYY-MM-DD");
  return value;
}

function canonicalOffset(zone: string | undefined): string | null {
  if (zone === undefined || zone === "Z" || zone === "z") return "+00:00";
  const sign = zone[0]!;
  const digits = zone.slice(1).replace(":", "");
  const hours = digits.slice(0, 2);
  const minutes = digits.length > 2 ? digits.slice(2) : "00";
  // Real offsets stay within ±14:00; PostgreSQL refuses displacements past ±15:59.
  if (Number(hours) > 14 || Number(minutes) > 59) return null;
  return `${sign}${hours}:${minutes}`;
}

/**
 * A OneRoster `datetime` field (dateLastModified): ISO 8601 as YYYY-MM-DD, YYYY-MM-DDThh:mm,
 * YYYY-MM-DDThh:mm:ss or YYYY-MM-DDThh:mm:ss.ffffff, each with an optional Z or ±hh:mm.
 * Returned as PostgreSQL timestamptz input with an explicit offset.
 *
 * - No offset means UTC: the binding's datetimes are UTC ("Z") and a machine API must not depend
 *   on the server's time zone.
 * - A date alone is the instant that day starts in UTC ('2024-05-01' = '2024-05-01T00:00:00Z'),
 *   for every predicate: what PostgreSQL's own date → timestamptz cast and JavaScript's
 *   Date.parse do, and what keeps a delta sync (`dateLastModified>'2024-05-01'`) from missing
 *   that day's changes. `=` with a date alone therefore matches only that midnight; a whole day
 *   is `>='2024-05-01' AND <'2024-05-02'`.
 * - At most 6 fractional digits: PostgreSQL keeps microseconds and would round more.
 */
export function dateTimeValue(field: string, value: string): string {
  const expected = "an ISO 8601 date or date-time, e.g. 2024-05-01 or 2024-05-01T13:45:00Z";
  const dateOnly = DATE.exec(value);
  if (dateOnly) {
    if (!validCalendarDate(dateOnly[1]!, dateOnly[2]!, dateOnly[3]!)) throw valueError(field, value, expected);
    return `${value}T00:00:00+00:00`;
  }
  const m = DATE_TIME.exec(value);
  if (!m) throw valueError(field, value, expected);
  const [, y, mo, d, h, mi, sec = "00", frac, zone] = m;
  const offset = canonicalOffset(zone);
  if (!validCalendarDate(y!, mo!, d!) || Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59 || offset === null) {
    throw valueError(field, value, expected);
  }
  return `${y}-${mo}-${d}T${h}:${mi}:${sec}${frac ? `.${frac}` : ""}${offset}`;
}

const NUMBER = /^-?(?:0|[1-9]\d{0,14})(?:\.\d{1,15})?$/;

/** Decimal text for a `::numeric` parameter; exponents and signs other than `-` are refused. */
export function numberValue(field: string, value: string): string {
  if (!NUMBER.test(value)) throw valueError(field, value, "a decimal number");
  return value;
}

/** OneRoster booleans are JSON `true` / `false`; in a filter they are quoted like every value. */
export function booleanValue(field: string, value: string): boolean {
  if (value === "true") return true;
  if (value === "false") return false;
  throw valueError(field, value, "'true' or 'false'");
}

/**
 * One of the values the Hub can emit for that field. A value outside the vocabulary is refused
 * rather than answered with an empty page: it is almost always a typo ('Active', 'student ')
 * that would otherwise look like "no data".
 */
export function enumValue(field: string, value: string, allowed: readonly string[] | undefined): string {
  if (allowed && !allowed.includes(value)) {
    const list = allowed.join(", ");
    throw valueError(field, value, `one of ${list.length > 200 ? `${list.slice(0, 200)}…` : list}`);
  }
  return value;
}

/**
 * The ILIKE pattern for "contains `value`": the value's own `%`, `_` and `\` are escaped so they
 * match themselves (the statement says ESCAPE '\').
 */
export function containsPattern(value: string): string {
  return `%${value.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
}
