import type { TManagedInstitution } from "./resolve-manager-scope";

/** Ids of an institution and its descendants, from a manager's scope (parents before children). */
export function subtreeOf(options: { institutions: TManagedInstitution[]; rootId: string }): string[] {
  const ids = [options.rootId];
  for (let i = 0; i < ids.length; i++) for (const c of options.institutions) if (c.parentId === ids[i]) ids.push(c.id);
  return ids;
}
