import type { TActingProfile } from "@/lib/server/tools/acting-profile";
import { findUsablePlacements } from "@/lib/server/tools/find-usable-placement-ids";
import { GALLERY_ITEM_COLUMNS, toGalleryItem, type TGalleryItem, type TGalleryItemRow } from "./gallery-item";

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
  const items = (await findUsablePlacements<TGalleryItemRow>({ profile }, GALLERY_ITEM_COLUMNS)).map(toGalleryItem);
  const words = fold(search ?? "").split(/\s+/).filter(Boolean);
  const matching = words.length
    ? items.filter((item) => {
        const haystack = fold(`${item.title} ${item.shortDescription}`);
        return words.every((w) => haystack.includes(w));
      })
    : items;
  return matching.sort((a, b) => a.title.localeCompare(b.title, "pt-BR") || (a.classLabel ?? "").localeCompare(b.classLabel ?? "", "pt-BR"));
}
