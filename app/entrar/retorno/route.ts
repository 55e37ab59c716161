import type { NextRequest } from "next/server";
import { choosePageAfterSignIn } from "@/lib/server/auth/choose-page-after-sign-in";
import { readSession, writeSession } from "@/lib/server/auth/session-cookie";
import { errorPageResponse, seeOther } from "@/lib/server/http/form-post";
import { otherMethods } from "@/lib/server/http/other-methods";
import { finishUpstreamSignIn, type TFinishResult } from "@/lib/server/upstream/finish-upstream-sign-in";
import { openPending, pendingCookie } from "@/lib/server/upstream/pending-sign-in";
import { upstreamRedirectUri } from "@/lib/server/upstream/upstream-client";

export const dynamic = "force-dynamic";

/** Where the person goes: the callback URL, or the profile picker first when they need it (the rules /perfil applies). */
const pageAfter = (result: Extract<TFinishResult, { ok: true }>): string =>
  choosePageAfterSignIn({ callbackUrl: result.callbackUrl, profileCount: result.profileCount, profileChosen: Boolean(result.token.profileId) }).location;

/**
 * The redirect URI every upstream provider sends the browser back to. The pending cookie is
 * cleared whatever happens (one attempt per start); a refusal lands on a page that says why,
 * with no session; success is the session a password sign-in gives, and the same next page.
 */
export async function GET(request: NextRequest): Promise<Response> {
  const { name, options } = pendingCookie();
  try {
    // The URL as registered with the provider (HUB_BASE_URL), whatever host the request came in on.
    const currentUrl = new URL(`${upstreamRedirectUri()}${request.nextUrl.search}`);
    const session = await readSession(request);
    const result = await finishUpstreamSignIn({ currentUrl, pending: openPending(request.cookies.get(name)?.value), sessionPersonId: session?.sub ?? null });
    const response = result.ok ? await writeSession(seeOther(pageAfter(result)), result.token) : seeOther(`/entrar/recusado?motivo=${result.reason}`);
    response.cookies.set(name, "", { ...options, maxAge: 0 });
    // The callback URL carries the provider's code: it must not leave through a Referer.
    response.headers.set("Referrer-Policy", "no-referrer");
    return response;
  } catch (error) {
    // A person followed a link: a page in Portuguese, never JSON (a database outage, say).
    return errorPageResponse(error);
  }
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
