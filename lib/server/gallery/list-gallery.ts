import { db } from "@/lib/server/db/database";
import type { TActingProfile } from "@/lib/server/tools/acting-profile";
import { findUsablePlacementIds } from "@/lib/server/tools/find-usable-placement-ids";
import { GALLERY_PLACEMENT_SELECT, toGalleryItem, type TGalleryItem } from "./gallery-item";

export interface ListGalleryOptions {
  profile: TActingProfile;
  /** Free text; every word must appear in the title or the short description. */
  search?: string;
}

/** Lowercase without accents, so "fracoes" finds "Frações" and "LABORATÓRIO" finds "laboratorio". */
function fold(text: string): string {
  return text.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();
}

/**
 * The gallery of the acting profile: one card per placement it may open. A profile sees tens of
 * placements at most, so the search runs here rather than in SQL, where accent folding would
 * need the unaccent extension (absent from the embedded engine).
 */
export async function listGallery({ profile, search }: ListGalleryOptions): Promise<TGalleryItem[]> {
  const ids = await findUsablePlacementIds({ profile });
  if (ids.length === 0) return [];
  const rows = await db().placement.findMany({ where: { id: { in: ids } }, select: GALLERY_PLACEMENT_SELECT });
  const items = rows.map(toGalleryItem);
  const words = fold(search ?? "").split(/\s+/).filter(Boolean);
  const matching = words.length
    ? items.filter((item) => {
        const haystack = fold(`${item.title} ${item.shortDescription}`);
        return words.every((w) => haystack.includes(w));
      })
    : items;
  return matching.sort((a, b) => a.title.localeCompare(b.title, "pt-BR") || (a.classLabel ?? "").localeCompare(b.classLabel ?? "", "pt-BR"));
}
