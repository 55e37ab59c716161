import { env } from "@/lib/env";
import { database, db } from "@/lib/server/db/database";
import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
import { GALLERY_ITEM_COLUMNS, toGalleryItem, type TGalleryItem, type TGalleryItemRow } from "@/lib/server/gallery/gallery-item";
import type { TActingProfile } from "@/lib/server/tools/acting-profile";
import { findUsablePlacementIds, PLACEMENT_FROM } from "@/lib/server/tools/find-usable-placement-ids";

export interface TTeacherClassTool extends TGalleryItem {
  /** Whether the teacher may open it too (a class placement may be for students only). */
  usable: boolean;
  /** `{HUB_BASE_URL}/launch/{placementId}`: the link to share with the class. */
  shareUrl: string;
}

export interface TTeacherClassPage {
  class: { id: string; name: string; periodCode: string; institutionId: string; students: number };
  tools: TTeacherClassTool[];
}

/**
 * A class page for its teacher: the tools placed for the class (active tools), each with the link
 * that opens it for the class. Null for a class the profile does not teach, or none at all.
 */
export async function getTeacherClass(options: { profile: TActingProfile; classId: string }): Promise<TTeacherClassPage | null> {
  const { profile, classId } = options;
  if (profile.role !== "professor" || !isUuidText(classId)) return null;
  const cls = await db().class.findFirst({
    where: { id: classId, subjectTeachers: { some: { teacherId: profile.id } } },
    select: { id: true, name: true, institutionId: true, period: { select: { code: true } }, _count: { select: { students: true } } },
  });
  if (!cls) return null;
  const [rows, usable] = await Promise.all([
    database().sql.query<TGalleryItemRow>(`SELECT ${GALLERY_ITEM_COLUMNS} FROM ${PLACEMENT_FROM} WHERE p."classId" = $1::uuid AND t.status = 'active'`, [cls.id], { prepared: true }),
    findUsablePlacementIds({ profile }),
  ]);
  const mine = new Set(usable);
  const base = env().HUB_BASE_URL;
  const tools = rows
    .map((row) => ({ ...toGalleryItem(row), usable: mine.has(row.placementId), shareUrl: `${base}/launch/${row.placementId}` }))
    .sort((a, b) => a.title.localeCompare(b.title, "pt-BR"));
  return { class: { id: cls.id, name: cls.name, periodCode: cls.period.code, institutionId: cls.institutionId, students: cls._count.students }, tools };
}
