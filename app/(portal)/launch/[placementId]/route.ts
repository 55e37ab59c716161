import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { getRequestUser } from "@/lib/server/auth/current-user";
import { buildLaunch } from "@/lib/server/launch/build-launch";
import { htmlResponse } from "@/lib/server/launch/html";
import { renderLaunchNotFound, renderLaunchPage, renderLaunchRefused } from "@/lib/server/launch/render-launch-page";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { otherMethods } from "@/lib/server/http/other-methods";

/** Launches that will not happen, each with its page: not yours or gone (404), no longer shared (403). */
const REFUSALS: Partial<Record<AppError["code"], { status: number; render: () => { html: string; csp: string } }>> = {
  not_found: { status: 404, render: renderLaunchNotFound },
  forbidden: { status: 403, render: renderLaunchRefused },
};

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** GET /launch/{placementId}: the signed LTI 1.0 launch form for the session's profile. */
export async function GET(request: NextRequest, { params }: { params: Promise<{ placementId: string }> }): Promise<Response> {
  const { placementId } = await params;
  const user = await getRequestUser(request);
  if (!user?.profile) {
    const back = `/launch/${encodeURIComponent(placementId)}`;
    // Redirect targets come from HUB_BASE_URL, never from the Host header.
    return NextResponse.redirect(new URL(withCallbackUrl(user ? "/perfil" : "/login", back), env().HUB_BASE_URL), 303);
  }
  const profile = { id: user.profile.id, role: user.profile.role, institutionId: user.profile.institution.id };
  try {
    const page = renderLaunchPage(await buildLaunch({ placementId, profile }));
    return htmlResponse(page.html, { csp: page.csp });
  } catch (error) {
    const refusal = error instanceof AppError ? REFUSALS[error.code] : undefined;
    if (!refusal) throw error;
    const page = refusal.render();
    return htmlResponse(page.html, { status: refusal.status, csp: page.csp });
  }
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
