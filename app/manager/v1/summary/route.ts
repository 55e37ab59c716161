import { dataApiGetHandler } from "@/lib/server/data-api/api-get-handler";
import { summarizeEvents } from "@/lib/server/data-api/summarize-events";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** /manager/v1/summary without org_id: 401 for a bad key first, else 400. */
export const GET = dataApiGetHandler(summarizeEvents);
