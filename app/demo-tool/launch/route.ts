import { respondDemoLaunch } from "@/lib/server/demo/respond-demo-launch";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** POST /demo-tool/launch: the reference LTI 1.0 tool provider (DEMO_TOOL=1 only). */
export async function POST(request: Request): Promise<Response> {
  return respondDemoLaunch(request);
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
