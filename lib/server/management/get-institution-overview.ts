import { db } from "@/lib/server/db/database";
import type { Role } from "@/lib/generated/prisma/client";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";

export interface TInstitutionOverview {
  people: Record<Role, number>;
  classes: number;
  periods: number;
  subjects: number;
  placements: number;
  /** Applications with their own access setting here. */
  applications: number;
  lastChangeAt: Date | null;
  /** The sign-in card rules (save-card-settings.ts). */
  cards: { networks: string[]; studentsOnly: boolean };
}

/** The counts on an institution's first page (its own rows, not its descendants'). */
export async function getInstitutionOverview(options: { scope: TManagerScope; institutionId: string }): Promise<TInstitutionOverview> {
  const { id } = requireInReach(options);
  const [roles, classes, periods, subjects, placements, applications, last, cards] = await Promise.all([
    db().profile.groupBy({ by: ["role"], where: { institutionId: id }, _count: true }),
    db().class.count({ where: { institutionId: id } }),
    db().period.count({ where: { institutionId: id } }),
    db().subject.count({ where: { institutionId: id } }),
    db().placement.count({ where: { institutionId: id } }),
    db().applicationAccess.count({ where: { institutionId: id } }),
    db().changeEvent.findFirst({ where: { institutionId: id }, orderBy: { occurredAt: "desc" }, select: { occurredAt: true } }),
    db().institution.findUnique({ where: { id }, select: { cardNetworks: true, cardStudentsOnly: true } }),
  ]);
  const people: Record<Role, number> = { aluno: 0, professor: 0, responsavel: 0, gestor: 0 };
  for (const r of roles) people[r.role] = r._count;
  return {
    people, classes, periods, subjects, placements, applications, lastChangeAt: last?.occurredAt ?? null,
    cards: { networks: cards?.cardNetworks ?? [], studentsOnly: cards?.cardStudentsOnly ?? true },
  };
}
