import { dataApiGetHandler } from "@/lib/server/data-api/api-get-handler";
import { otherMethods } from "@/lib/server/http/other-methods";
import { readUsage } from "@/lib/server/usage/read-usage";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** /manager/v1/usage without org_id: 401 for a bad key first, else 400. */
export const GET = dataApiGetHandler(readUsage);

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
