// Shared shape and helpers of the gallery services (list-gallery, get-gallery-tool).
import type { Prisma } from "@/lib/generated/prisma/client";

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

export const GALLERY_PLACEMENT_SELECT = {
  id: true,
  title: true,
  class: { select: { name: true } },
  tool: { select: { id: true, title: true, shortDescription: true, logoId: true } },
} satisfies Prisma.PlacementSelect;

export type TGalleryPlacementRow = Prisma.PlacementGetPayload<{ select: typeof GALLERY_PLACEMENT_SELECT }>;

export function logoUrl(logoId: string | null): string | null {
  return logoId ? `/assets/${logoId}` : null;
}

export function toGalleryItem(row: TGalleryPlacementRow): TGalleryItem {
  return {
    placementId: row.id,
    toolId: row.tool.id,
    title: row.title ?? row.tool.title,
    classLabel: row.class?.name ?? null,
    shortDescription: row.tool.shortDescription,
    logoUrl: logoUrl(row.tool.logoId),
  };
}
