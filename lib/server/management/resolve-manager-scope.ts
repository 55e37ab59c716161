import { database } from "@/lib/server/db/database";
import { AppError } from "@/lib/errors";
import { treeCte } from "@/lib/server/institution-tree/tree-sql";

export interface TManagedInstitution {
  id: string;
  name: string;
  kind: "network" | "school";
  parentId: string | null;
  /** 0 for the manager's own institution. */
  depth: number;
}

/** What one manager may reach: their profile's institution and every descendant. */
export interface TManagerScope {
  personId: string;
  profileId: string;
  rootId: string;
  /** Tree order: each institution before its children, siblings by name. */
  institutions: TManagedInstitution[];
}

const SUBTREE_SQL = `
WITH RECURSIVE ${treeCte("down", "$1::uuid")}
SELECT id, name, kind, "parentId", depth FROM down ORDER BY path`;

/**
 * The reach of a gestor profile, re-read on every request so a profile removed or an institution
 * moved takes effect at once. Any other profile (or one of another person) has no reach.
 */
export async function resolveManagerScope(options: { personId: string; profileId: string }): Promise<TManagerScope> {
  const profile = await database().prisma.profile.findFirst({
    where: { id: options.profileId, personId: options.personId },
    select: { id: true, role: true, institutionId: true },
  });
  if (!profile || profile.role !== "gestor") throw new AppError("forbidden", "Esta área é só para gestores.");
  const institutions = await database().sql.query<TManagedInstitution>(SUBTREE_SQL, [profile.institutionId]);
  return { personId: options.personId, profileId: profile.id, rootId: profile.institutionId, institutions };
}
