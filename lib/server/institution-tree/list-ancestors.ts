import { database } from "@/lib/server/db/database";
import { treeCte } from "./tree-sql";

export interface TAncestor {
  id: string;
  name: string;
  parentId: string | null;
}

const ANCESTORS_SQL = `WITH RECURSIVE ${treeCte("up", "$1::uuid")}
SELECT id, name, "parentId" FROM up ORDER BY depth`;

/** The institution and its ancestors, nearest first, in one query (empty when there is no such institution). */
export async function listAncestors(options: { institutionId: string }): Promise<TAncestor[]> {
  return database().sql.query<TAncestor>(ANCESTORS_SQL, [options.institutionId], { prepared: true });
}
