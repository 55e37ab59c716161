import { otherMethods } from "@/lib/server/http/other-methods";
import { respondDemo13Launch } from "@/lib/server/demo/lti13-demo-tool";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The reference LTI 1.3 tool's redirect URI: the id_token form post (DEMO_TOOL=1 only). */
export async function POST(request: Request): Promise<Response> {
  return respondDemo13Launch(request);
}

export const { GET, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
