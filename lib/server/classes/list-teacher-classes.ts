import { database } from "@/lib/server/db/database";

export interface TTeacherClass {
  id: string;
  name: string;
  periodCode: string;
  /** The subjects the teacher teaches in the class. */
  subjects: string[];
}

const CLASSES_SQL = `
SELECT c.id, c.name, pe.code AS "periodCode", array_agg(DISTINCT s.name ORDER BY s.name) AS subjects
  FROM "SubjectTeacher" st
  JOIN "Class" c ON c.id = st."classId"
  JOIN "Period" pe ON pe.id = c."periodId"
  JOIN "Subject" s ON s.id = st."subjectId"
 WHERE st."teacherId" = $1::uuid
 GROUP BY c.id, c.name, pe.code
 ORDER BY pe.code DESC, c.name`;

/** The classes a professor profile teaches (one row per class, its subjects listed). */
export async function listTeacherClasses(options: { profileId: string }): Promise<TTeacherClass[]> {
  return database().sql.query<TTeacherClass>(CLASSES_SQL, [options.profileId], { prepared: true });
}
