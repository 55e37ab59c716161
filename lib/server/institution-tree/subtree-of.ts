/**
 * An institution and its descendants, from a list in tree order (each institution before its
 * children, as a manager's scope holds them): the institution and the run after it of those deeper
 * than it. Empty when `rootId` is not in the list.
 */
export function subtreeOf<T extends { id: string; depth: number }>(options: { institutions: readonly T[]; rootId: string }): T[] {
  const start = options.institutions.findIndex((i) => i.id === options.rootId);
  if (start < 0) return [];
  const root = options.institutions[start]!;
  const end = options.institutions.findIndex((i, at) => at > start && i.depth <= root.depth);
  return options.institutions.slice(start, end < 0 ? undefined : end);
}
