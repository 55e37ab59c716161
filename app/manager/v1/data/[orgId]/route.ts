import { dataApiGetHandler } from "@/lib/server/data-api/api-get-handler";
import { readData } from "@/lib/server/data-api/read-data-page";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Data API (docs/data-api.md): school changes as events, one page per call. */
export const GET = dataApiGetHandler(readData);
