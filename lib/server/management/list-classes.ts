import { db } from "@/lib/server/db/database";
import type { Prisma } from "@/lib/generated/prisma/client";
import { PAGE_SIZE } from "@/lib/validations/management";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";
import { toPage, type TPage } from "./to-page";

export interface TClassRow {
  id: string;
  name: string;
  grade: string | null;
  shift: string | null;
  periodId: string;
  periodCode: string;
  studentCount: number;
  teacherCount: number;
}

/** Classes of one institution, filterable by period code and name. */
export async function listClasses(options: {
  scope: TManagerScope;
  institutionId: string;
  q?: string;
  periodCode?: string;
  page: number;
  pageSize?: number;
}): Promise<TPage<TClassRow>> {
  const institution = requireInReach(options);
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const where: Prisma.ClassWhereInput = {
    institutionId: institution.id,
    ...(options.periodCode ? { period: { code: options.periodCode } } : {}),
    ...(options.q ? { name: { contains: options.q, mode: "insensitive" } } : {}),
  };
  const [total, rows] = await Promise.all([
    db().class.count({ where }),
    db().class.findMany({
      where,
      include: { period: { select: { code: true } }, _count: { select: { students: true, subjectTeachers: true } } },
      orderBy: [{ period: { code: "desc" } }, { name: "asc" }],
      skip: (options.page - 1) * pageSize,
      take: pageSize,
    }),
  ]);
  return toPage({
    items: rows.map((c) => ({
      id: c.id,
      name: c.name,
      grade: c.grade,
      shift: c.shift,
      periodId: c.periodId,
      periodCode: c.period.code,
      studentCount: c._count.students,
      teacherCount: c._count.subjectTeachers,
    })),
    total,
    page: options.page,
    pageSize,
  });
}
