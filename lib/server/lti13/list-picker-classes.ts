import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
import { database } from "@/lib/server/db/database";
import type { TActingProfile } from "@/lib/server/tools/acting-profile";

export interface TPickerClass {
  classId: string;
  label: string;
}

// The classes the teacher teaches at their school, when the tool has a content picker (Deep Linking).
const SQL = `
SELECT DISTINCT c.id AS "classId", c.name || ' · ' || pd.name AS label
  FROM "ToolLti13" l
  JOIN "SubjectTeacher" st ON st."teacherId" = $2::uuid
  JOIN "Class" c ON c.id = st."classId" AND c."institutionId" = $3::uuid
  JOIN "Period" pd ON pd.id = c."periodId"
 WHERE l."toolId" = $1::uuid AND l."deepLinkingUrl" IS NOT NULL
 ORDER BY label`;

/** Where a teacher may add the tool's content (startDeepLinking checks it all again). */
export async function listPickerClasses(options: { toolId: string; profile: TActingProfile }): Promise<TPickerClass[]> {
  if (options.profile.role !== "professor" || !isUuidText(options.toolId)) return [];
  return database().sql.query<TPickerClass>(SQL, [options.toolId, options.profile.id, options.profile.institutionId]);
}
