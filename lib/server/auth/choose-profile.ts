import type { JWT } from "next-auth/jwt";
import { db } from "@/lib/server/db/database";

/** The session's claims with `profileId` chosen, or null when that profile is not the person's. */
export async function chooseProfile({ token, profileId }: { token: JWT; profileId: string }): Promise<JWT | null> {
  if (!token.sub || !/^[0-9a-f-]{36}$/i.test(profileId)) return null;
  const owned = await db().profile.findFirst({ where: { id: profileId, personId: token.sub }, select: { id: true } });
  return owned ? { ...token, profileId: owned.id } : null;
}
