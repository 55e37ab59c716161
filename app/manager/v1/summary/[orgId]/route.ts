import { dataApiGetHandler } from "@/lib/server/data-api/api-get-handler";
import { summarizeEvents } from "@/lib/server/data-api/summarize-events";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Summary (docs/data-api.md): event counts per entity and kind, as the institution tree. */
export const GET = dataApiGetHandler(summarizeEvents);
