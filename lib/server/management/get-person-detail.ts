import { db } from "@/lib/server/db/database";
import { AppError } from "@/lib/errors";
import type { Role } from "@/lib/generated/prisma/client";
import { ZIdSchema } from "@/lib/validations/management";
import type { TManagerScope } from "./resolve-manager-scope";

export interface TPersonDetail {
  profile: { id: string; role: Role; institutionId: string; institutionName: string };
  person: { id: string; name: string; email: string | null; cpf: string | null; phone: string | null; birthDate: string | null; hasPassword: boolean };
  /** Other profiles of the person that the manager reaches. */
  otherProfiles: { id: string; role: Role; institutionName: string }[];
  /** Profiles in institutions the manager does not reach (only counted). */
  profilesOutsideReach: number;
  enrollments: { id: string; classId: string; className: string; periodCode: string }[];
  teachings: { id: string; classId: string; className: string; subjectName: string; periodCode: string }[];
  guardians: { id: string; profileId: string; name: string; kinship: string | null }[];
  wards: { id: string; profileId: string; name: string; kinship: string | null }[];
}

const day = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

/** One profile with its person and links; 404 when the profile is outside the manager's reach. */
export async function getPersonDetail(options: { scope: TManagerScope; profileId: string }): Promise<TPersonDetail> {
  const id = ZIdSchema.safeParse(options.profileId);
  const reach = new Map(options.scope.institutions.map((i) => [i.id, i]));
  const profile = id.success
    ? await db().profile.findUnique({
        where: { id: id.data },
        include: {
          person: { include: { profiles: { select: { id: true, role: true, institutionId: true } } } },
          classStudents: { include: { class: { include: { period: { select: { code: true } } } } } },
          subjectTeachers: { include: { class: { include: { period: { select: { code: true } } } }, subject: { select: { name: true } } } },
          guardedBy: { include: { guardian: { include: { person: { select: { name: true } } } } } },
          guardianOf: { include: { student: { include: { person: { select: { name: true } } } } } },
        },
      })
    : null;
  const institution = profile ? reach.get(profile.institutionId) : undefined;
  if (!profile || !institution) throw new AppError("not_found", "Pessoa não encontrada.");
  const { person } = profile;
  return {
    profile: { id: profile.id, role: profile.role, institutionId: profile.institutionId, institutionName: institution.name },
    person: { id: person.id, name: person.name, email: person.email, cpf: person.cpf, phone: person.phone, birthDate: day(person.birthDate), hasPassword: Boolean(person.passwordHash) },
    otherProfiles: person.profiles
      .filter((p) => p.id !== profile.id && reach.has(p.institutionId))
      .map((p) => ({ id: p.id, role: p.role, institutionName: reach.get(p.institutionId)!.name })),
    profilesOutsideReach: person.profiles.filter((p) => !reach.has(p.institutionId)).length,
    enrollments: profile.classStudents
      .map((e) => ({ id: e.id, classId: e.classId, className: e.class.name, periodCode: e.class.period.code }))
      .sort((a, b) => b.periodCode.localeCompare(a.periodCode) || a.className.localeCompare(b.className, "pt-BR")),
    teachings: profile.subjectTeachers
      .map((t) => ({ id: t.id, classId: t.classId, className: t.class.name, subjectName: t.subject.name, periodCode: t.class.period.code }))
      .sort((a, b) => b.periodCode.localeCompare(a.periodCode) || a.className.localeCompare(b.className, "pt-BR")),
    guardians: profile.guardedBy.map((g) => ({ id: g.id, profileId: g.guardianId, name: g.guardian.person.name, kinship: g.kinship })),
    wards: profile.guardianOf.map((g) => ({ id: g.id, profileId: g.studentId, name: g.student.person.name, kinship: g.kinship })),
  };
}
