import { dataApiGetHandler } from "@/lib/server/data-api/api-get-handler";
import { readData } from "@/lib/server/data-api/read-data-page";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** /manager/v1/data without org_id: 401 for a bad key first, else 400 (spec: org_id not informed). */
export const GET = dataApiGetHandler(readData);
