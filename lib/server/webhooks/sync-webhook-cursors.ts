import { database } from "@/lib/server/db/database";
import { MAX_DEPTH } from "@/lib/server/institution-tree/tree-sql";

// An endpoint follows the feed of every institution where its application has an access row of
// its own and no ancestor has one: reading that institution covers its subtree (the Data API's
// scope), so a school below an enabled network is not delivered twice. A new cursor starts at
// the feed's start (null), as a partner's first read does.
const SYNC_SQL = `
WITH RECURSIVE rows AS (
  SELECT a."applicationId", a."institutionId" FROM "ApplicationAccess" a
   WHERE a."applicationId" IN (SELECT "applicationId" FROM "WebhookEndpoint" WHERE "disabledAt" IS NULL AND ($1::uuid IS NULL OR id = $1::uuid))
), above AS (
  SELECT r."applicationId", r."institutionId" AS root, i."parentId" AS id, 1 AS depth
    FROM rows r JOIN "Institution" i ON i.id = r."institutionId"
  UNION ALL
  SELECT a."applicationId", a.root, i."parentId", a.depth + 1
    FROM above a JOIN "Institution" i ON i.id = a.id
   WHERE a.depth < ${MAX_DEPTH}
)
INSERT INTO "WebhookCursor" ("endpointId", "institutionId")
SELECT e.id, r."institutionId"
  FROM rows r JOIN "WebhookEndpoint" e ON e."applicationId" = r."applicationId" AND e."disabledAt" IS NULL AND ($1::uuid IS NULL OR e.id = $1::uuid)
 WHERE NOT EXISTS (SELECT 1 FROM above a JOIN rows o ON o."institutionId" = a.id AND o."applicationId" = a."applicationId"
                    WHERE a.root = r."institutionId" AND a."applicationId" = r."applicationId")
ON CONFLICT ("endpointId", "institutionId") DO NOTHING`;

/** Adds the cursors endpoints lack (a new endpoint, a newly enabled institution); of one endpoint, or of all. */
export async function syncWebhookCursors(options: { endpointId?: string } = {}): Promise<void> {
  await database().sql.query(SYNC_SQL, [options.endpointId ?? null]);
}
