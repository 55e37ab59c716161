import { routeHandler } from "@/lib/server/http/plain-endpoint";
import { otherMethods } from "@/lib/server/http/other-methods";
import { handleOneRosterTokenRequest } from "@/lib/server/oneroster/handle-oneroster-token-request";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** OneRoster 1.2's token endpoint: OAuth 2 client credentials (RFC 6749 §4.4), docs/oneroster.md. */
export const POST = routeHandler(handleOneRosterTokenRequest);

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
