// Where the walks of a collection have got to, so that the next page of a walk starts where the
// last one ended instead of reading and dropping `offset` records. A page in the default order
// (by the Hub's record id, no `sort`) is a merge of ordered index scans; at offset o each scan was
// read from its start, so a page cost grew with o: at a million students the page of 1,000 users
// at offset 900,000 took 4.4 s against 0.07 s for the first, and a partner's sync of every page
// was quadratic (docs/decisions/048-oneroster-pages-continue-where-the-last-ended.md).
//
// For a read's shape (the application, the path, the filter and the direction), this process
// remembers the Hub's id of the last record of each page it served, by the position after it. A
// request at or past a remembered position reads only the records after that id (an index range)
// and skips the rest of the way. Over data that does not change between the two requests, that is
// exactly the page at the offset; when records before the position were added or removed in
// between, the page is the one that follows the last record the client was given, which an offset
// count would have shifted (a record read twice, or one never read). The positions are the
// process's own: another instance of a fleet, or a restart, reads by offset, as before.

/** The Hub's id of the record before `offset` in a walk's order. */
export interface TPagePosition {
  offset: number;
  sid: string;
}

/** Shapes remembered; the least recently used is forgotten past it. */
const MAX_SHAPES = 2_000;
/** Positions remembered per shape (the furthest along are kept): a walk needs only the last. */
const MAX_PER_SHAPE = 8;

const positions = new Map<string, TPagePosition[]>();

/** The key of a read's shape: everything that decides which records it lists, in what order, but its offset and limit. */
export function pageShape(parts: { applicationId: string; path: string; filter: string | null; direction: "ASC" | "DESC" }): string {
  return [parts.applicationId, parts.path, parts.direction, parts.filter ?? ""].join("\n");
}

/** The furthest remembered position at or before `offset` for `shape`, or null. */
export function positionBefore(shape: string, offset: number): TPagePosition | null {
  const known = positions.get(shape);
  if (!known) return null;
  // Used again: the most recent in the map's order.
  positions.delete(shape);
  positions.set(shape, known);
  let best: TPagePosition | null = null;
  for (const position of known) if (position.offset <= offset && (!best || position.offset > best.offset)) best = position;
  return best;
}

/** Remembers that the record before `position.offset` in `shape`'s order is `position.sid`. */
export function rememberPosition(shape: string, position: TPagePosition): void {
  if (position.offset <= 0) return;
  const known = (positions.get(shape) ?? []).filter((p) => p.offset !== position.offset);
  known.push(position);
  known.sort((x, y) => y.offset - x.offset);
  positions.delete(shape);
  positions.set(shape, known.slice(0, MAX_PER_SHAPE));
  if (positions.size > MAX_SHAPES) positions.delete(positions.keys().next().value!);
}

/** Forgets every position (tests). */
export function forgetPositions(): void {
  positions.clear();
}
