import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { getRequestUser } from "@/lib/server/auth/current-user";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { otherMethods } from "@/lib/server/http/other-methods";
import { htmlResponse } from "@/lib/server/launch/html";
import { renderLaunchPage } from "@/lib/server/launch/render-launch-page";
import { authorizeLti13 } from "@/lib/server/lti13/authorize-lti13";
import { LTI13_PATHS } from "@/lib/server/lti13/platform-facts";
import { renderLti13Error } from "@/lib/server/lti13/render-lti13-error";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** The LTI 1.3 authentication request (GET or form POST, OIDC Core §3.1.2.1): the id_token form post. */
async function handle(params: URLSearchParams, user: Awaited<ReturnType<typeof getRequestUser>>): Promise<Response> {
  const profile = user?.profile ? { id: user.profile.id, role: user.profile.role, institutionId: user.profile.institution.id } : null;
  try {
    const outcome = await authorizeLti13({ params, profile });
    if (outcome.kind === "sign_in") {
      const back = `${LTI13_PATHS.authorize}?${params.toString()}`;
      return NextResponse.redirect(new URL(withCallbackUrl(user ? "/perfil" : "/login", back), env().HUB_BASE_URL), 303);
    }
    const page = renderLaunchPage(outcome.launch);
    return htmlResponse(page.html, { csp: page.csp });
  } catch (error) {
    if (!(error instanceof AppError) || error.code === "internal" || error.code === "unavailable") throw error;
    const page = renderLti13Error(error.status, error.message);
    return htmlResponse(page.html, { status: error.status, csp: page.csp });
  }
}

export async function GET(request: NextRequest): Promise<Response> {
  return handle(request.nextUrl.searchParams, await getRequestUser(request));
}

export async function POST(request: NextRequest): Promise<Response> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded")) {
    const page = renderLti13Error(415, "Envie o pedido como formulário (application/x-www-form-urlencoded).");
    return htmlResponse(page.html, { status: 415, csp: page.csp });
  }
  const params = new URLSearchParams(await request.text());
  const user = await getRequestUser(request);
  // A tool's cross-site form POST arrives without the session cookie (SameSite=Lax), and so does
  // a redirect from it (Chromium keeps the cookie off the whole chain): the hub would ask a
  // signed-in person to sign in and choose a profile again. A page of the hub posts the same
  // request again, now same-site, with the cookie; that post is not cross-site, so no loop.
  if (!user && request.headers.get("sec-fetch-site") === "cross-site") {
    const action = new URL(LTI13_PATHS.authorize, env().HUB_BASE_URL);
    const page = renderLaunchPage({ action: action.toString(), fields: [...params], toolOrigin: action.origin, toolTitle: "a ferramenta" });
    return htmlResponse(page.html, { csp: page.csp });
  }
  return handle(params, user);
}

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
