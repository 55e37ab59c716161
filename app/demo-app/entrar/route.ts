import { NextResponse } from "next/server";
import { env } from "@/lib/env";
import { DEMO_PENDING_COOKIE, DEMO_PENDING_MAX_AGE, startDemoSignIn } from "@/lib/server/demo/demo-app-client";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The demo application's "Entrar com o Hub": remember state, nonce and PKCE verifier, go to the hub. */
export async function GET(request: Request): Promise<Response> {
  if (env().DEMO_TOOL !== "1") return new Response("Not found", { status: 404 });
  const loginHint = new URL(request.url).searchParams.get("login_hint") ?? undefined;
  try {
    const { location, pendingCookie } = await startDemoSignIn({ loginHint: loginHint?.slice(0, 64) });
    const response = NextResponse.redirect(location, 302);
    response.cookies.set(DEMO_PENDING_COOKIE, pendingCookie, {
      httpOnly: true, sameSite: "lax", secure: location.startsWith("https:"), path: "/demo-app", maxAge: DEMO_PENDING_MAX_AGE,
    });
    response.headers.set("Cache-Control", "no-store");
    return response;
  } catch {
    return NextResponse.redirect(new URL("/demo-app?erro=hub_unreachable", request.url), 302);
  }
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
