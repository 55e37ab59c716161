// The Data API cursor: an opaque token for a position (txid, seq) in the event order. Clients must
// not build it; we validate it strictly so a tampered cursor is a 400, never a SQL error.
// docs/decisions/003-gap-free-paging.md explains why the order is (txid, seq) and not seq alone.

export interface TCursorPosition {
  /** Writing transaction id (decimal string: it is a PostgreSQL bigint). */
  txid: string;
  /** Event sequence within the order (decimal string, bigint). */
  seq: string;
}

const VERSION = "1";
const BIGINT_MAX = 9223372036854775807n;
const DECIMAL = /^(0|[1-9]\d{0,18})$/;

export function encodeCursor(position: TCursorPosition): string {
  return Buffer.from(`${VERSION}.${position.txid}.${position.seq}`, "utf8").toString("base64url");
}

/** The position a cursor names, or null when it is not one of ours. */
export function decodeCursor(cursor: string): TCursorPosition | null {
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(cursor)) return null;
  const parts = Buffer.from(cursor, "base64url").toString("utf8").split(".");
  if (parts.length !== 3 || parts[0] !== VERSION) return null;
  const [, txid = "", seq = ""] = parts;
  if (!DECIMAL.test(txid) || !DECIMAL.test(seq)) return null;
  if (BigInt(txid) > BIGINT_MAX || BigInt(seq) > BIGINT_MAX) return null;
  return { txid, seq };
}

/**
 * The SQL twin of decodeCursor, for a statement that compares a stored cursor with the feed's
 * positions (the webhook claim, deliver-next-batch.ts): "<txid>.<seq>" for one of our cursors, or
 * NULL for anything else, including numbers of 19 digits, which a bigint may not hold (a caller
 * treats NULL as "cannot tell"). Never raises on what is not a cursor.
 * lib/server/data-api/cursor-sql.test.ts runs it against encodeCursor.
 */
export function cursorPositionSql(column: string): string {
  const text = `encode(decode(rpad(translate(${column}, '-_', '+/'), (length(${column}) + 3) / 4 * 4, '='), 'base64'), 'escape')`;
  return `CASE WHEN ${column} ~ '^[A-Za-z0-9_-]{1,80}$' AND length(${column}) % 4 <> 1
  THEN substring(${text} from '^${VERSION}[.]([0-9]{1,18}[.][0-9]{1,18})$') END`;
}

/** The later of two positions in (txid, seq) order. */
export function laterPosition(a: TCursorPosition, b: TCursorPosition): TCursorPosition {
  const [at, bt] = [BigInt(a.txid), BigInt(b.txid)];
  if (at !== bt) return at > bt ? a : b;
  return BigInt(a.seq) >= BigInt(b.seq) ? a : b;
}
