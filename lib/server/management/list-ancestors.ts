import { db } from "@/lib/db";

export interface TAncestor {
  id: string;
  name: string;
  parentId: string | null;
}

// A cycle cannot be created through the services, but a bound keeps a bad row from looping.
const MAX_DEPTH = 64;

/** The institution and its ancestors, nearest first. Trees are a few levels deep. */
export async function listAncestors(options: { institutionId: string }): Promise<TAncestor[]> {
  const chain: TAncestor[] = [];
  let id: string | null = options.institutionId;
  while (id && chain.length <= MAX_DEPTH) {
    const row: TAncestor | null = await db().institution.findUnique({ where: { id }, select: { id: true, name: true, parentId: true } });
    if (!row) break;
    chain.push(row);
    id = row.parentId;
  }
  return chain;
}
