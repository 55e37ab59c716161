import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { DEMO_PENDING_COOKIE, DEMO_SESSION_COOKIE, DEMO_SESSION_MAX_AGE, finishDemoSignIn, type TDemoCallbackResult } from "./demo-app-client";

function destination(result: TDemoCallbackResult): string {
  if (result.kind === "signed_in") return "/demo-app";
  if (result.kind === "unsolicited") return `/demo-app?${new URLSearchParams({ codigo: result.code, user_id: result.userId })}`;
  return `/demo-app?${new URLSearchParams({ erro: result.error, ...(result.detail ? { detalhe: result.detail } : {}) })}`;
}

/** The demo application's redirect_uri: exchanges the code server-side and opens the demo's own session. */
export async function respondDemoCallback(request: NextRequest): Promise<Response> {
  if (env().DEMO_TOOL !== "1") return new Response("Not found", { status: 404 });
  const query = request.nextUrl.searchParams;
  // Implicit flow: the tokens are in the fragment, which the browser keeps across this redirect.
  if (!query.has("code") && !query.has("error")) return NextResponse.redirect(new URL("/demo-app", request.url), 302);
  const result = await finishDemoSignIn({ query, pendingCookie: request.cookies.get(DEMO_PENDING_COOKIE)?.value }).catch(
    (): TDemoCallbackResult => ({ kind: "error", error: "token_exchange_failed" }),
  );
  const response = NextResponse.redirect(new URL(destination(result), request.url), 302);
  response.headers.set("Cache-Control", "no-store");
  // A code this browser did not ask for must not end the attempt it is really making.
  if (result.kind !== "unsolicited") response.cookies.delete({ name: DEMO_PENDING_COOKIE, path: "/demo-app" });
  if (result.kind === "signed_in") {
    response.cookies.set(DEMO_SESSION_COOKIE, result.sessionCookie, {
      httpOnly: true,
      sameSite: "lax",
      secure: request.nextUrl.protocol === "https:",
      path: "/demo-app",
      maxAge: DEMO_SESSION_MAX_AGE,
    });
  }
  return response;
}
