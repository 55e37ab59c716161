import { db } from "@/lib/server/db/database";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma/client";
import { PAGE_SIZE, ZIdSchema } from "@/lib/validations/management";
import type { TManagerScope } from "./resolve-manager-scope";
import { toPage, type TPage } from "./to-page";

export interface TClassDetail {
  class: { id: string; name: string; grade: string | null; shift: string | null; institutionId: string; periodId: string; periodCode: string; periodName: string };
  students: TPage<{ enrollmentId: string; profileId: string; name: string; cpf: string | null; email: string | null; hasCard: boolean }>;
  teachings: { id: string; subjectId: string; subjectName: string; teacherId: string; teacherName: string }[];
  /** For the "assign a teacher" form. */
  subjects: { id: string; name: string }[];
  teachers: { id: string; name: string }[];
}

/** A class with its students (paged, searchable) and teacher assignments; 404 outside the reach. */
export async function getClassDetail(options: { scope: TManagerScope; classId: string; q?: string; page: number; pageSize?: number }): Promise<TClassDetail> {
  const id = ZIdSchema.safeParse(options.classId);
  const cls = id.success ? await db().class.findUnique({ where: { id: id.data }, include: { period: true } }) : null;
  if (!cls || !options.scope.institutions.some((i) => i.id === cls.institutionId)) throw new AppError("not_found", "Turma não encontrada.");
  const pageSize = options.pageSize ?? PAGE_SIZE;
  const where: Prisma.ClassStudentWhereInput = {
    classId: cls.id,
    ...(options.q ? { student: { person: { name: { contains: options.q, mode: "insensitive" } } } } : {}),
  };
  const [total, enrollments, teachings, subjects, teachers] = await Promise.all([
    db().classStudent.count({ where }),
    db().classStudent.findMany({
      where,
      include: { student: { include: { person: { select: { name: true, cpf: true, email: true } }, signInCards: { where: { revokedAt: null }, select: { id: true } } } } },
      orderBy: [{ student: { person: { name: "asc" } } }, { id: "asc" }],
      skip: (options.page - 1) * pageSize,
      take: pageSize,
    }),
    db().subjectTeacher.findMany({
      where: { classId: cls.id },
      include: { subject: { select: { name: true } }, teacher: { include: { person: { select: { name: true } } } } },
      orderBy: [{ subject: { name: "asc" } }],
    }),
    db().subject.findMany({ where: { institutionId: cls.institutionId }, select: { id: true, name: true }, orderBy: { name: "asc" } }),
    db().profile.findMany({
      where: { institutionId: cls.institutionId, role: "professor" },
      select: { id: true, person: { select: { name: true } } },
      orderBy: { person: { name: "asc" } },
      take: 1000,
    }),
  ]);
  return {
    class: {
      id: cls.id, name: cls.name, grade: cls.grade, shift: cls.shift, institutionId: cls.institutionId,
      periodId: cls.periodId, periodCode: cls.period.code, periodName: cls.period.name,
    },
    students: toPage({
      items: enrollments.map((e) => ({ enrollmentId: e.id, profileId: e.studentId, name: e.student.person.name, cpf: e.student.person.cpf, email: e.student.person.email, hasCard: e.student.signInCards.length > 0 })),
      total,
      page: options.page,
      pageSize,
    }),
    teachings: teachings.map((t) => ({ id: t.id, subjectId: t.subjectId, subjectName: t.subject.name, teacherId: t.teacherId, teacherName: t.teacher.person.name })),
    subjects,
    teachers: teachers.map((t) => ({ id: t.id, name: t.person.name })),
  };
}
