import { dataApiGetHandler } from "@/lib/server/data-api/api-get-handler";
import { readData } from "@/lib/server/data-api/read-data-page";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Data API (docs/data-api.md): school changes as events, one page per call. */
export const GET = dataApiGetHandler(readData);

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
