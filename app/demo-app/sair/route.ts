import { NextResponse } from "next/server";
import { DEMO_SESSION_COOKIE } from "@/lib/server/demo/demo-app-client";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Signs out of the demo application only (the hub session is the hub's). */
export function POST(request: Request): Response {
  const response = NextResponse.redirect(new URL("/demo-app", request.url), 303);
  response.cookies.delete({ name: DEMO_SESSION_COOKIE, path: "/demo-app" });
  return response;
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
