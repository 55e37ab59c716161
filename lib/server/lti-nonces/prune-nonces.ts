import { database } from "@/lib/server/db/database";

/** Deletes nonces first seen more than `olderThanSeconds` ago; returns how many went. */
export async function pruneNonces({ olderThanSeconds }: { olderThanSeconds: number }): Promise<number> {
  const rows = await database().sql.query<{ consumerKey: string }>(
    `DELETE FROM "LtiNonce" WHERE "createdAt" < now() - make_interval(secs => $1) RETURNING "consumerKey"`,
    [olderThanSeconds],
  );
  return rows.length;
}
