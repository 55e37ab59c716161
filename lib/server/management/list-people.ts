import { db } from "@/lib/server/db/database";
import type { Prisma, Role } from "@/lib/generated/prisma/client";
import { PAGE_SIZE } from "@/lib/validations/management";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";
import { toPage, type TPage } from "./to-page";

export interface TPersonRow {
  profileId: string;
  personId: string;
  role: Role;
  name: string;
  email: string | null;
  cpf: string | null;
  phone: string | null;
  birthDate: string | null;
}

/** The people of one institution (one row per profile), searchable by name, e-mail or CPF. */
export async function listPeople(options: {
  scope: TManagerScope;
  institutionId: string;
  q?: string;
  role?: Role;
  page: number;
  pageSize?: number;
}): Promise<TPage<TPersonRow>> {
  const institution = requireInReach(options);
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const where: Prisma.ProfileWhereInput = { institutionId: institution.id, ...(options.role ? { role: options.role } : {}) };
  if (options.q) {
    const digits = options.q.replace(/\D/g, "");
    where.person = {
      OR: [
        { name: { contains: options.q, mode: "insensitive" } },
        { email: { contains: options.q.toLowerCase() } },
        ...(digits.length >= 3 ? [{ cpf: { startsWith: digits } }] : []),
      ],
    };
  }
  const [total, rows] = await Promise.all([
    db().profile.count({ where }),
    db().profile.findMany({
      where,
      include: { person: true },
      orderBy: [{ person: { name: "asc" } }, { id: "asc" }],
      skip: (options.page - 1) * pageSize,
      take: pageSize,
    }),
  ]);
  const items = rows.map((r) => ({
    profileId: r.id,
    personId: r.personId,
    role: r.role,
    name: r.person.name,
    email: r.person.email,
    cpf: r.person.cpf,
    phone: r.person.phone,
    birthDate: r.person.birthDate ? r.person.birthDate.toISOString().slice(0, 10) : null,
  }));
  return toPage({ items, total, page: options.page, pageSize });
}
