import { NextResponse } from "next/server";
import { DEMO_SESSION_COOKIE } from "@/lib/server/oauth/demo-app-client";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Signs out of the demo application only (the hub session is the hub's). */
export function POST(request: Request): Response {
  const response = NextResponse.redirect(new URL("/demo-app", request.url), 303);
  response.cookies.delete({ name: DEMO_SESSION_COOKIE, path: "/demo-app" });
  return response;
}
