import { database } from "@/lib/server/db/database";
import type { TActingProfile } from "@/lib/server/tools/acting-profile";
import type { TGalleryItem } from "./gallery-item";
import { listGallery } from "./list-gallery";

export interface THomeGalleryItem extends TGalleryItem {
  pinned: boolean;
}

export interface THomeGallery {
  /** Pinned cards first (the latest pinned first), then the rest in listGallery's order. */
  items: THomeGalleryItem[];
  /** The tools the profile opened most recently (the launch log, last 30 days), at most RECENT_MAX; none while searching. */
  recent: THomeGalleryItem[];
}

export const RECENT_MAX = 4;
const RECENT_DAYS = 30;

// The profile's pins and the tools it launched lately, newest first, in one round trip. The launch
// log (DataAccessLog, channel lti_launch) is the institution's record of every launch: "used
// recently" is read from it rather than kept twice.
const PERSONAL_SQL = `
SELECT 'pin' AS kind, f."placementId"::text AS id, f."createdAt" AS at FROM "FavouritePlacement" f WHERE f."profileId" = $1::uuid
UNION ALL
SELECT 'recent', l."toolId"::text, max(l."createdAt") FROM "DataAccessLog" l
 WHERE l."profileId" = $1::uuid AND l.channel = 'lti_launch' AND l."toolId" IS NOT NULL AND l."createdAt" > now() - make_interval(days => $2)
 GROUP BY l."toolId"
ORDER BY at DESC`;

/** The home page's gallery: the profile's cards with its pins first, and its recently used tools. */
export async function listHomeGallery(options: { profile: TActingProfile; search?: string }): Promise<THomeGallery> {
  const [items, rows] = await Promise.all([
    listGallery(options),
    database().sql.query<{ kind: "pin" | "recent"; id: string }>(PERSONAL_SQL, [options.profile.id, RECENT_DAYS], { prepared: true }),
  ]);
  const pinOrder = new Map(rows.filter((r) => r.kind === "pin").map((r, i) => [r.id, i]));
  const withPins = items.map((item) => ({ ...item, pinned: pinOrder.has(item.placementId) }));
  const rank = (item: THomeGalleryItem) => pinOrder.get(item.placementId) ?? Number.MAX_SAFE_INTEGER;
  const ordered = withPins.map((item, i) => ({ item, i })).sort((a, b) => rank(a.item) - rank(b.item) || a.i - b.i).map(({ item }) => item);
  const recentTools = rows.filter((r) => r.kind === "recent").map((r) => r.id);
  const recent = options.search
    ? []
    : recentTools.flatMap((toolId) => ordered.find((item) => item.toolId === toolId) ?? []).slice(0, RECENT_MAX);
  return { items: ordered, recent };
}
