import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import type { ClassStudent, Person, Profile } from "@/lib/generated/prisma/client";
import { ZPersonInputSchema } from "@/lib/validations/school-data";
import { inTransaction, recordChanges, type ChangeInput, type WriteOptions } from "./record-change";
import { turmaAlunoChange, usuarioChange } from "./changes";

const ZImportStudentsSchema = z.object({
  institutionId: z.uuid(),
  students: z
    .array(z.object({ person: ZPersonInputSchema.omit({ password: true }), classId: z.uuid() }))
    .min(1)
    .max(5_000),
});

/**
 * Creates many new students (person + aluno profile + enrollment) in one transaction with batched
 * inserts. Emits exactly the events the one-by-one services would: a `usuario` insert per profile
 * and a `turmaAluno` insert per enrollment, in that order per student.
 */
export async function importStudents(input: z.input<typeof ZImportStudentsSchema>, options: WriteOptions = {}): Promise<{ profileIds: string[] }> {
  const { institutionId, students } = ZImportStudentsSchema.parse(input);
  return inTransaction(options, "Aluno com este e-mail ou CPF", async (tx) => {
    const classIds = [...new Set(students.map((s) => s.classId))];
    const classes = await tx.class.findMany({ where: { id: { in: classIds } }, include: { period: true } });
    const byId = new Map(classes.map((c) => [c.id, c]));
    if (classes.length !== classIds.length || classes.some((c) => c.institutionId !== institutionId)) {
      throw new AppError("bad_request", "Turma inexistente ou de outra instituição.");
    }
    const now = new Date();
    const persons: Person[] = [];
    const profiles: Profile[] = [];
    const enrollments: ClassStudent[] = [];
    const events: ChangeInput[] = [];
    for (const { person: p, classId } of students) {
      const person: Person = {
        id: randomUUID(), name: p.name, birthDate: p.birthDate ? new Date(`${p.birthDate}T00:00:00Z`) : null,
        cpf: p.cpf ?? null, email: p.email ?? null, phone: p.phone ?? null, passwordHash: null, createdAt: now, updatedAt: now,
      };
      const profile: Profile = { id: randomUUID(), personId: person.id, institutionId, role: "aluno", createdAt: now, updatedAt: now };
      const enrollment: ClassStudent = { id: randomUUID(), classId, studentId: profile.id, createdAt: now };
      const periodCode = byId.get(classId)!.period.code;
      persons.push(person);
      profiles.push(profile);
      enrollments.push(enrollment);
      events.push(
        usuarioChange("insert", profile),
        turmaAlunoChange("insert", enrollment, { institutionId, period: { code: periodCode } }),
      );
    }
    await tx.person.createMany({ data: persons });
    await tx.profile.createMany({ data: profiles });
    await tx.classStudent.createMany({ data: enrollments });
    await recordChanges(tx, events);
    return { profileIds: profiles.map((p) => p.id) };
  });
}
