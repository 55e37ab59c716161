import { db } from "@/lib/server/db/database";
import type { InstitutionKind, Role } from "@/lib/generated/prisma/client";

export interface ProfileSummary {
  id: string;
  role: Role;
  institution: { id: string; name: string; kind: InstitutionKind };
}

export async function listProfiles({ personId }: { personId: string }): Promise<ProfileSummary[]> {
  return db().profile.findMany({
    where: { personId },
    select: { id: true, role: true, institution: { select: { id: true, name: true, kind: true } } },
    orderBy: [{ institution: { name: "asc" } }, { role: "asc" }],
  });
}
