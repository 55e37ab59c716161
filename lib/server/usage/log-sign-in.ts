import type { Role } from "@/lib/generated/prisma/enums";
import { database } from "@/lib/server/db/database";
import { log } from "@/lib/server/log.mjs";
import { metrics } from "@/lib/server/metrics/registry.mjs";
import type { TProviderKind } from "@/lib/upstream/presets";

/**
 * How a person proved who they are: a password, a sign-in card, or an upstream provider
 * (lib/upstream/presets.ts). `profile` is only read: rows from before issue #42 say it for a
 * password sign-in whose profile was chosen in the picker.
 */
export type TSignInMethod = "password" | "card" | TProviderKind;

/**
 * Counts one sign-in with a profile for the usage page: the profile's institution and kind, never
 * who. One insert beside a sign-in's password hash check or session write; a failed insert is
 * reported and never fails the sign-in (the promise never rejects).
 */
export async function logSignIn(entry: { institutionId: string; role: Role; method: TSignInMethod }): Promise<void> {
  metrics().signIns.inc({ method: entry.method, role: entry.role });
  await database()
    .sql.query(`INSERT INTO "SignInLog" (id, "institutionId", role, method) VALUES (gen_random_uuid(), $1::uuid, $2::"Role", $3)`, [entry.institutionId, entry.role, entry.method])
    .then(
      () => undefined,
      (error: unknown) => log().error({ err: error }, "Sign-in log insert failed"),
    );
}
