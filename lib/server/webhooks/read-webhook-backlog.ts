// What the webhook gauges show at each scrape (docs/operations.md, "Webhooks"): per enabled
// endpoint, how many of its institution feeds have something to deliver (the worker's own test,
// NEWS_SQL: failing, never read, or an event after the cursor), how many are failing, and how long
// the most overdue one has waited for a worker. One statement; its cost is a probe of the feed's
// index per cursor, what the worker's claims spend every idle interval anyway.
import { database } from "@/lib/server/db/database";
import { NEWS_SQL } from "./deliver-next-batch";

export interface TWebhookBacklogRow {
  endpoint: string;
  backlogCursors: number;
  failingCursors: number;
  dueSeconds: number;
}

const BACKLOG_SQL = `
SELECT c."endpointId" AS endpoint,
       count(*) FILTER (WHERE c.news)::int AS "backlogCursors",
       count(*) FILTER (WHERE c.failures > 0)::int AS "failingCursors",
       COALESCE(extract(epoch FROM now() - min(c."dueAt") FILTER (WHERE c.waiting)), 0)::float8 AS "dueSeconds"
  FROM (SELECT d."endpointId", d.failures, d."dueAt",
               d."dueAt" <= now() AND (d."leaseUntil" IS NULL OR d."leaseUntil" < now()) AS waiting,
               ${NEWS_SQL} AS news
          FROM "WebhookCursor" d JOIN "WebhookEndpoint" e ON e.id = d."endpointId"
         WHERE e."disabledAt" IS NULL) c
 GROUP BY c."endpointId"`;

export async function readWebhookBacklog(): Promise<TWebhookBacklogRow[]> {
  return database().sql.query<TWebhookBacklogRow>(BACKLOG_SQL, [], { prepared: true });
}
