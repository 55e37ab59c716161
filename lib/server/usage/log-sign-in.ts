import type { Role } from "@/lib/generated/prisma/enums";
import { database } from "@/lib/server/db/database";
import { log } from "@/lib/server/log.mjs";

export type TSignInMethod = "password" | "profile" | "card";

/**
 * Counts one sign-in with a profile for the usage page: the profile's institution and kind, never
 * who. One insert beside a sign-in's password hash check or session write; a failed insert is
 * reported and never fails the sign-in (the promise never rejects).
 */
export async function logSignIn(entry: { institutionId: string; role: Role; method: TSignInMethod }): Promise<void> {
  await database()
    .sql.query(`INSERT INTO "SignInLog" (id, "institutionId", role, method) VALUES (gen_random_uuid(), $1::uuid, $2::"Role", $3)`, [entry.institutionId, entry.role, entry.method])
    .then(
      () => undefined,
      (error: unknown) => log().error({ err: error }, "Sign-in log insert failed"),
    );
}
