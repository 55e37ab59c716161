// Shared shape and helpers of the gallery services (list-gallery, get-gallery-tool) and of a teacher's class page (get-teacher-class).
export interface TGalleryPlacement {
  /** The launch path's id and the LTI resource_link_id. */
  placementId: string;
  title: string;
  /** The class a class placement is for ("7º ano A"), else null. */
  classLabel: string | null;
}

export interface TGalleryItem extends TGalleryPlacement {
  toolId: string;
  shortDescription: string;
  logoUrl: string | null;
}

/**
 * What a card needs, as SQL columns over `p` (Placement), `t` (its Tool) and `c` (its Class, or
 * NULLs): read in the statement that finds the placements (find-usable-placement-ids.ts), not by a
 * second query through the ORM, which cost a gallery page one round trip and about 1.2 ms of CPU
 * in Prisma's query compiler (docs/performance.md).
 */
export const GALLERY_ITEM_COLUMNS = `p.id AS "placementId", t.id AS "toolId", coalesce(p.title, t.title) AS title, c.name AS "classLabel", t."shortDescription", t."logoId"`;

export type TGalleryItemRow = Omit<TGalleryItem, "logoUrl"> & { logoId: string | null };

export function logoUrl(logoId: string | null): string | null {
  return logoId ? `/assets/${logoId}` : null;
}

export function toGalleryItem({ logoId, ...item }: TGalleryItemRow): TGalleryItem {
  return { ...item, logoUrl: logoUrl(logoId) };
}
