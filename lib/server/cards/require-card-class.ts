import type { Class } from "@/lib/generated/prisma/client";
import { database } from "@/lib/server/db/database";
import { AppError } from "@/lib/errors";
import type { CurrentUser } from "@/lib/server/auth/current-user";
import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
import { treeCte } from "@/lib/server/institution-tree/tree-sql";

/** A class as its cards name it: the class, its school and its period. */
export type TCardClass = Pick<Class, "id" | "name" | "institutionId"> & { institutionName: string; periodCode: string };

// The class, and whether the profile may print its cards: a gestor of the class's school or of an
// institution above it, or a professor who teaches the class.
const CLASS_SQL = `
WITH RECURSIVE ${treeCte("up", `(SELECT "institutionId" FROM "Class" WHERE id = $1::uuid)`)}
SELECT c.id, c.name, c."institutionId", i.name AS "institutionName", pe.code AS "periodCode",
       (($3::text = 'gestor' AND EXISTS (SELECT 1 FROM up WHERE up.id = $4::uuid))
        OR ($3::text = 'professor' AND EXISTS (SELECT 1 FROM "SubjectTeacher" st WHERE st."classId" = c.id AND st."teacherId" = $2::uuid))) AS allowed
  FROM "Class" c
  JOIN "Institution" i ON i.id = c."institutionId"
  JOIN "Period" pe ON pe.id = c."periodId"
 WHERE c.id = $1::uuid`;

/**
 * The class whose cards `user` may print, or the same 404 for a class that does not exist and one
 * out of their reach (so ids cannot be probed).
 */
export async function requireCardClass(options: { user: CurrentUser; classId: string }): Promise<TCardClass> {
  const profile = options.user.profile;
  if (!profile || !isUuidText(options.classId)) throw new AppError("not_found", "Turma não encontrada.");
  const [row] = await database().sql.query<TCardClass & { allowed: boolean }>(CLASS_SQL, [options.classId, profile.id, profile.role, profile.institution.id]);
  if (!row?.allowed) throw new AppError("not_found", "Turma não encontrada.");
  return { id: row.id, name: row.name, institutionId: row.institutionId, institutionName: row.institutionName, periodCode: row.periodCode };
}
