import { cache } from "react";
import { database } from "@/lib/server/db/database";
import type { InstitutionKind, Role } from "@/lib/generated/prisma/client";

export interface ProfileSummary {
  id: string;
  role: Role;
  institution: { id: string; name: string; kind: InstitutionKind };
}

// A person's profiles with their institutions, by institution name and then role (the enum's order,
// as Prisma's orderBy gave it). One prepared statement: it runs on every page's header, the
// gallery and the authorization screen, where Prisma's query planning cost more than the query
// (docs/performance.md, issue #45).
const PROFILES_SQL = `
SELECT p.id, p.role::text AS role, json_build_object('id', i.id, 'name', i.name, 'kind', i.kind) AS institution
  FROM "Profile" p JOIN "Institution" i ON i.id = p."institutionId"
 WHERE p."personId" = $1::uuid
 ORDER BY i.name, p.role`;

// Read once per page render (React's cache: the layout's header and the picker read the same
// list); everywhere else, where React keeps no request, every call reads.
const profilesOf = cache((personId: string): Promise<ProfileSummary[]> => database().sql.query<ProfileSummary>(PROFILES_SQL, [personId], { prepared: true }));

export function listProfiles({ personId }: { personId: string }): Promise<ProfileSummary[]> {
  return profilesOf(personId);
}
