import { z } from "zod";
import { db } from "@/lib/server/db/database";
import type { TActingProfile } from "@/lib/server/tools/acting-profile";
import { findUsablePlacements } from "@/lib/server/tools/find-usable-placement-ids";
import { GALLERY_ITEM_COLUMNS, logoUrl, toGalleryItem, type TGalleryItemRow, type TGalleryPlacement } from "./gallery-item";

export interface TGalleryTool {
  toolId: string;
  title: string;
  shortDescription: string;
  longDescription: string;
  /** Null when the stored address is not http(s): it is rendered as a link. */
  siteUrl: string | null;
  edtechName: string;
  logoUrl: string | null;
  /** The profile's placements of this tool, each with its own "Abrir". */
  placements: TGalleryPlacement[];
}

function httpUrl(value: string): string | null {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:" ? value : null;
  } catch {
    return null;
  }
}

/** A tool's detail view, or null when the profile has no placement of it (same as unknown). */
export async function getGalleryTool({ profile, toolId }: { profile: TActingProfile; toolId: string }): Promise<TGalleryTool | null> {
  if (!z.guid().safeParse(toolId).success) return null;
  const placements = (await findUsablePlacements<TGalleryItemRow>({ profile, toolId }, GALLERY_ITEM_COLUMNS)).map(toGalleryItem);
  if (placements.length === 0) return null;
  const tool = await db().tool.findUnique({
    where: { id: toolId },
    select: { id: true, title: true, shortDescription: true, longDescription: true, siteUrl: true, logoId: true, edtech: { select: { name: true } } },
  });
  if (!tool) return null;
  return {
    toolId: tool.id,
    title: tool.title,
    shortDescription: tool.shortDescription,
    longDescription: tool.longDescription,
    siteUrl: httpUrl(tool.siteUrl),
    edtechName: tool.edtech.name,
    logoUrl: logoUrl(tool.logoId),
    placements: placements.map(({ placementId, title, classLabel }) => ({ placementId, title, classLabel })),
  };
}
