import { db } from "@/lib/server/db/database";
import type { Prisma, Role } from "@/lib/generated/prisma/client";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";

export interface TProfileOption {
  id: string;
  name: string;
  cpf: string | null;
  email: string | null;
}

/**
 * Profiles of one role in one institution matching a name, e-mail or CPF, for the "find a
 * student to enroll / a guardian to link" pickers. Leaves out students already in `notInClassId`.
 */
export async function searchProfiles(options: {
  scope: TManagerScope;
  institutionId: string;
  role: Role;
  q: string;
  notInClassId?: string;
  limit?: number;
}): Promise<TProfileOption[]> {
  const institution = requireInReach(options);
  const q = options.q.trim();
  if (q.length < 2) return [];
  const digits = q.replace(/\D/g, "");
  const where: Prisma.ProfileWhereInput = {
    institutionId: institution.id,
    role: options.role,
    person: {
      OR: [
        { name: { contains: q, mode: "insensitive" } },
        { email: { contains: q.toLowerCase() } },
        ...(digits.length >= 3 ? [{ cpf: { startsWith: digits } }] : []),
      ],
    },
    ...(options.notInClassId ? { classStudents: { none: { classId: options.notInClassId } } } : {}),
  };
  const rows = await db().profile.findMany({
    where,
    select: { id: true, person: { select: { name: true, cpf: true, email: true } } },
    orderBy: [{ person: { name: "asc" } }, { id: "asc" }],
    take: options.limit ?? 10,
  });
  return rows.map((r) => ({ id: r.id, name: r.person.name, cpf: r.person.cpf, email: r.person.email }));
}
