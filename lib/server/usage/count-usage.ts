import { env } from "@/lib/env";
import { database } from "@/lib/server/db/database";
import { readsMayLag } from "@/lib/server/db/replicas";
import type { TUsageRow } from "@/lib/usage/usage";

// Launches from the institution's access log (channel lti_launch: one row per launch, the tool's
// name kept as it was), sign-ins from SignInLog (by method: rows from before issue #42 say
// `profile` for a password sign-in whose profile was picked); both grouped by day in the hub's time zone.
const USAGE_SQL = `
SELECT 'launch' AS kind, to_char(l."createdAt" AT TIME ZONE $4, 'YYYY-MM-DD') AS day, l."institutionId", i.name AS "institutionName",
       l."toolId", coalesce(t.title, l."toolName") AS "toolName", p.role::text AS role, NULL::text AS method, count(*)::int AS count
  FROM "DataAccessLog" l
  JOIN "Institution" i ON i.id = l."institutionId"
  LEFT JOIN "Tool" t ON t.id = l."toolId"
  LEFT JOIN "Profile" p ON p.id = l."profileId"
 WHERE l.channel = 'lti_launch' AND l."institutionId" = ANY ($1::uuid[]) AND l."createdAt" >= $2 AND l."createdAt" < $3
   AND ($5::uuid IS NULL OR t."edtechId" = $5::uuid)
 GROUP BY 2, 3, 4, 5, 6, 7
UNION ALL
SELECT 'sign_in', to_char(s."createdAt" AT TIME ZONE $4, 'YYYY-MM-DD'), s."institutionId", i.name, NULL, NULL, s.role::text,
       CASE s.method WHEN 'profile' THEN 'password' ELSE s.method END, count(*)::int
  FROM "SignInLog" s
  JOIN "Institution" i ON i.id = s."institutionId"
 WHERE s."institutionId" = ANY ($1::uuid[]) AND s."createdAt" >= $2 AND s."createdAt" < $3
 GROUP BY 2, 3, 4, 7, 8
 ORDER BY 1, 2, 4, 6, 7, 8`;

/**
 * Launches and sign-ins in `institutionIds` between the instants [from, until): counts per day,
 * institution, tool and profile kind, never a person. `edtechId` narrows launches to that edtech's
 * tools (the Data API: a partner sees its own tools' launches, not its competitors'). Counts may
 * lag: read on a replica within the lag bound when there is one (docs/decisions/042-read-replicas.md).
 */
export async function countUsage(options: { institutionIds: string[]; from: Date; until: Date; edtechId?: string }): Promise<TUsageRow[]> {
  return readsMayLag(() =>
    database("may-lag").sql.query<TUsageRow>(USAGE_SQL, [options.institutionIds, options.from, options.until, env().HUB_TIME_ZONE, options.edtechId ?? null]),
  );
}
