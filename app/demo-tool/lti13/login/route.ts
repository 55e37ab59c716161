import { otherMethods } from "@/lib/server/http/other-methods";
import { respondDemo13Login } from "@/lib/server/demo/lti13-demo-tool";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The reference LTI 1.3 tool's login initiation (GET or POST; DEMO_TOOL=1 only). */
export async function GET(request: Request): Promise<Response> {
  return respondDemo13Login(request);
}
export async function POST(request: Request): Promise<Response> {
  return respondDemo13Login(request);
}

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
