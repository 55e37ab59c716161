import type { JWT } from "next-auth/jwt";
import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
import { db } from "@/lib/server/db/database";
import { logSignIn } from "@/lib/server/usage/log-sign-in";

/** The session's claims with `profileId` chosen, or null when that profile is not the person's. */
export async function chooseProfile({ token, profileId }: { token: JWT; profileId: string }): Promise<JWT | null> {
  if (!token.sub || !isUuidText(profileId)) return null;
  const owned = await db().profile.findFirst({ where: { id: profileId, personId: token.sub }, select: { id: true, institutionId: true, role: true } });
  if (!owned) return null;
  // A sign-in with this profile for the usage counts, by the way the person signed in (choosing
  // the profile already chosen is not one).
  if (token.profileId !== owned.id) await logSignIn({ institutionId: owned.institutionId, role: owned.role, method: token.method ?? "password" });
  return { ...token, profileId: owned.id };
}
