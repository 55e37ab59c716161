// The launch page's one statement: the session's person and profile (current-user.ts's USER_SQL)
// and, for that profile, the placement as PLACEMENT_SQL reads it (build-launch.ts), in one round
// trip and one snapshot where they were two (docs/decisions/021).
import { type CurrentUser, userParams, userSqlWith } from "@/lib/server/auth/current-user";
import { readSession } from "@/lib/server/auth/session-cookie";
import { database } from "@/lib/server/db/database";
import type { TPlainRequest } from "@/lib/server/http/plain-endpoint";
import { isPlacementId, placementSql, type TPlacementRow } from "./build-launch";

// The placement's statement for the chosen profile's columns, not for values read back from
// the profile's JSON: the planner then looks each table up by its key once.
const LAUNCH_SQL = userSqlWith(
  `(SELECT row_to_json(x) FROM (${placementSql({ placement: "$3::uuid", profile: "upr.id", institution: `upr."institutionId"`, role: "upr.role" })}) x) AS placement`,
);

/**
 * The signed-in user (null: no valid session, or its person is gone) and the placement their
 * chosen profile may open (null: no profile chosen, or no such placement for it).
 */
export async function readLaunch(request: Pick<TPlainRequest, "cookie">, placementId: string): Promise<{ user: CurrentUser | null; placement: TPlacementRow | null }> {
  const params = userParams(await readSession(request));
  if (!params) return { user: null, placement: null };
  const [row] = await database().sql.query<CurrentUser & { placement: TPlacementRow | null }>(
    LAUNCH_SQL, [...params, isPlacementId(placementId) ? placementId : null], { prepared: true },
  );
  if (!row) return { user: null, placement: null };
  const { placement, ...user } = row;
  return { user, placement };
}
