import { NextResponse, type NextRequest } from "next/server";
import { readSession } from "@/lib/server/auth/session-cookie";
import { errorPageResponse, seeOther } from "@/lib/server/http/form-post";
import { otherMethods } from "@/lib/server/http/other-methods";
import { safeCallbackUrl, withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { pendingCookie } from "@/lib/server/upstream/pending-sign-in";
import { startUpstreamSignIn } from "@/lib/server/upstream/start-upstream-sign-in";

export const dynamic = "force-dynamic";

/**
 * "Entrar com Google/Microsoft/gov.br": off to the network's provider, a link that works without
 * JavaScript. `vincular=1` ("Meus dados"): the signed-in person links that provider's account.
 */
export async function GET(request: NextRequest, { params }: { params: Promise<{ providerId: string }> }): Promise<Response> {
  try {
    const { providerId } = await params;
    const query = request.nextUrl.searchParams;
    const loginHint = query.get("login_hint")?.slice(0, 254) ?? null;
    const callbackUrl = safeCallbackUrl(query.get("callbackUrl"));
    const linkFor = query.get("vincular") === "1" ? ((await readSession(request))?.sub ?? null) : null;
    if (query.get("vincular") === "1" && !linkFor) return seeOther(withCallbackUrl("/login", "/meus-dados"));
    const result = await startUpstreamSignIn({ providerId, callbackUrl, loginHint, linkFor });
    if (!result.ok) return seeOther(`/entrar/recusado?motivo=${result.reason}`);
    const response = new NextResponse(null, { status: 303, headers: { Location: result.location, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
    const { name, options } = pendingCookie();
    response.cookies.set(name, result.pending, options);
    return response;
  } catch (error) {
    // A person followed a link: a page in Portuguese, never JSON (a database outage, say).
    return errorPageResponse(error);
  }
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
