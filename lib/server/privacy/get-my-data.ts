// The "Meus dados" page (issue #14, point 6): for the signed-in person and, through her guardian
// profiles, for each child, which partners receive which attributes per profile, and the recent
// reads of that person's data.
import { db } from "@/lib/server/db/database";
import type { InstitutionKind, Role } from "@/lib/generated/prisma/client";
import { listPartnersForProfile, type TPartnerSharing } from "./list-partners-for-profile";
import { listReadsAboutProfiles, type TPersonRead } from "./list-reads-about-profiles";

export interface TProfileSharing {
  profileId: string;
  role: Role;
  institution: { id: string; name: string; kind: InstitutionKind };
  partners: TPartnerSharing[];
}

export interface TDataSubject {
  /** "self" for the signed-in person; "child" for a student she is guardian of. */
  relation: "self" | "child";
  /** Person id, for keys only. */
  personId: string;
  name: string;
  /** The kinship recorded on the guardian link (children only). */
  kinship: string | null;
  profiles: TProfileSharing[];
  reads: TPersonRead[];
}

const PROFILE_SELECT = { id: true, role: true, createdAt: true, institutionId: true, institution: { select: { id: true, name: true, kind: true } } } as const;

type TProfileRow = { id: string; role: Role; createdAt: Date; institutionId: string; institution: { id: string; name: string; kind: InstitutionKind } };

/** Partners per profile and the reads of those profiles' data: one data subject's view. */
export async function describeSharing(profiles: readonly TProfileRow[], readLimit?: number): Promise<{ profiles: TProfileSharing[]; reads: TPersonRead[] }> {
  const [sharing, reads] = await Promise.all([
    Promise.all(
      profiles.map(async (p) => ({
        profileId: p.id,
        role: p.role,
        institution: p.institution,
        partners: await listPartnersForProfile({ profile: { id: p.id, institutionId: p.institutionId, role: p.role } }),
      })),
    ),
    listReadsAboutProfiles({ profiles, limit: readLimit }),
  ]);
  return { profiles: sharing, reads };
}

/** The page's data: the person first, then each child (guardian links of her profiles), by name. */
export async function getMyData(options: { personId: string }): Promise<TDataSubject[]> {
  const person = await db().person.findUnique({
    where: { id: options.personId },
    select: {
      id: true,
      name: true,
      profiles: {
        select: {
          ...PROFILE_SELECT,
          guardianOf: { select: { kinship: true, student: { select: { ...PROFILE_SELECT, person: { select: { id: true, name: true } } } } } },
        },
        orderBy: [{ institution: { name: "asc" } }, { role: "asc" }],
      },
    },
  });
  if (!person) return [];
  const children = new Map<string, { name: string; kinship: string | null; profiles: TProfileRow[] }>();
  for (const link of person.profiles.flatMap((p) => p.guardianOf)) {
    const { person: child, ...profile } = link.student;
    const entry = children.get(child.id) ?? { name: child.name, kinship: link.kinship, profiles: [] };
    if (!entry.profiles.some((p) => p.id === profile.id)) entry.profiles.push(profile);
    children.set(child.id, entry);
  }
  const self: TDataSubject = { relation: "self", personId: person.id, name: person.name, kinship: null, ...(await describeSharing(person.profiles)) };
  const others = await Promise.all(
    [...children].map(async ([personId, c]): Promise<TDataSubject> => ({ relation: "child", personId, name: c.name, kinship: c.kinship, ...(await describeSharing(c.profiles)) })),
  );
  return [self, ...others.sort((a, b) => a.name.localeCompare(b.name, "pt-BR"))];
}
