import { AppError } from "@/lib/errors";
import { db } from "@/lib/server/db/database";
import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
import type { TActingProfile } from "@/lib/server/tools/acting-profile";
import { findUsablePlacementIds } from "@/lib/server/tools/find-usable-placement-ids";

/**
 * Pins (or unpins) a gallery card for the acting profile. Only a card the profile may open can be
 * pinned: any other id is the same 404 (a pin is not a way to probe placements).
 */
export async function setFavourite(options: { profile: TActingProfile; placementId: string; pinned: boolean }): Promise<void> {
  const { profile, placementId } = options;
  if (!isUuidText(placementId)) throw new AppError("not_found", "Ferramenta não encontrada.");
  if (!options.pinned) {
    await db().favouritePlacement.deleteMany({ where: { profileId: profile.id, placementId } });
    return;
  }
  const [usable] = await findUsablePlacementIds({ profile, placementId });
  if (!usable) throw new AppError("not_found", "Ferramenta não encontrada.");
  await db().favouritePlacement.upsert({ where: { profileId_placementId: { profileId: profile.id, placementId } }, create: { profileId: profile.id, placementId }, update: {} });
}
