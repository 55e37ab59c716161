// The `limit` and `offset` query parameters. OpenAPI (every collection GET of the 1.2 Rostering
// service): limit "the maximum number of records to be contained in the response", integer
// int32, default 100, minimum 1; offset "the number of the first record to be supplied", integer
// int32, default 0, minimum 0; both `allowEmptyValue: false`.

import { OneRosterError, quoteInput } from "./status";

export const DEFAULT_LIMIT = 100;
const INT32_MAX = 2_147_483_647;
const DIGITS = /^\d{1,10}$/;

export interface TPaging {
  limit: number;
  offset: number;
}

export interface TPagingOptions {
  /** The binding's default is 100. */
  defaultLimit?: number;
  /** The largest page the server will build; larger requests are served this many. */
  maxLimit: number;
}

function pagingError(name: string, value: string, expected: string): OneRosterError {
  // No invalid_limit_offset exists in the 1.2 code minor vocabulary: invaliddata it is.
  return new OneRosterError("invaliddata", `Invalid ${name} ${quoteInput(value)}: expected ${expected}.`);
}

/** Plain decimal digits only: no sign, exponent, fraction or surrounding whitespace. */
function integerParameter(name: string, value: string, min: number): number {
  if (!DIGITS.test(value)) throw pagingError(name, value, `an integer of at least ${min}`);
  const n = Number(value);
  if (n < min) throw pagingError(name, value, `an integer of at least ${min}`);
  return n;
}

/**
 * Rule: limit is an integer ≥ 1. Above `maxLimit` it is lowered to `maxLimit`, not refused: the
 * binding calls it the *maximum* number of records, so a shorter page is a valid answer, and the
 * Link header built from the effective limit still walks every record.
 */
export function parseLimit(limit: string | null | undefined, options: TPagingOptions): number {
  if (limit === null || limit === undefined) return Math.min(options.defaultLimit ?? DEFAULT_LIMIT, options.maxLimit);
  return Math.min(integerParameter("limit", limit, 1), options.maxLimit);
}

/** Rule: offset is an integer ≥ 0 that fits the binding's int32. */
export function parseOffset(offset: string | null | undefined): number {
  if (offset === null || offset === undefined) return 0;
  const n = integerParameter("offset", offset, 0);
  if (n > INT32_MAX) throw pagingError("offset", offset, `an integer of at most ${INT32_MAX}`);
  return n;
}

export function parsePaging(limit: string | null | undefined, offset: string | null | undefined, options: TPagingOptions): TPaging {
  return { limit: parseLimit(limit, options), offset: parseOffset(offset) };
}
