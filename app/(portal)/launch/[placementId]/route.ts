import { fromWebRequest, toWebResponse } from "@/lib/server/http/plain-endpoint";
import { otherMethods } from "@/lib/server/http/other-methods";
import { launchPage } from "@/lib/server/launch/launch-endpoint";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** GET /launch/{placementId}: the signed LTI 1.0 launch form for the session's profile. */
export async function GET(request: Request, { params }: { params: Promise<{ placementId: string }> }): Promise<Response> {
  return toWebResponse(await launchPage(fromWebRequest(request), await params));
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
