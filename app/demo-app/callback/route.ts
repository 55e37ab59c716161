import type { NextRequest } from "next/server";
import { respondDemoCallback } from "@/lib/server/demo/respond-demo-callback";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The demo application's redirect_uri (DEMO_TOOL=1 only). */
export async function GET(request: NextRequest): Promise<Response> {
  return respondDemoCallback(request);
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
