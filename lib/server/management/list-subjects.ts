import { db } from "@/lib/server/db/database";
import type { Prisma } from "@/lib/generated/prisma/client";
import { PAGE_SIZE } from "@/lib/validations/management";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";
import { toPage, type TPage } from "./to-page";

export interface TSubjectRow {
  id: string;
  name: string;
  code: string | null;
  assignmentCount: number;
}

export async function listSubjects(options: { scope: TManagerScope; institutionId: string; q?: string; page: number; pageSize?: number }): Promise<TPage<TSubjectRow>> {
  const institution = requireInReach(options);
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const where: Prisma.SubjectWhereInput = {
    institutionId: institution.id,
    ...(options.q ? { OR: [{ name: { contains: options.q, mode: "insensitive" } }, { code: { contains: options.q, mode: "insensitive" } }] } : {}),
  };
  const [total, rows] = await Promise.all([
    db().subject.count({ where }),
    db().subject.findMany({
      where,
      include: { _count: { select: { subjectTeachers: true } } },
      orderBy: [{ name: "asc" }],
      skip: (options.page - 1) * pageSize,
      take: pageSize,
    }),
  ]);
  return toPage({
    items: rows.map((s) => ({ id: s.id, name: s.name, code: s.code, assignmentCount: s._count.subjectTeachers })),
    total,
    page: options.page,
    pageSize,
  });
}
