import { NextResponse } from "next/server";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { buildLaunch } from "@/lib/server/launch/build-launch";
import { htmlResponse } from "@/lib/server/launch/html";
import { renderLaunchNotFound, renderLaunchPage, renderLaunchRefused } from "@/lib/server/launch/render-launch-page";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** GET /launch/{placementId}: the signed LTI 1.0 launch form for the session's profile. */
export async function GET(_request: Request, { params }: { params: Promise<{ placementId: string }> }): Promise<Response> {
  const { placementId } = await params;
  const user = await getCurrentUser();
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
    if (!(error instanceof AppError) || (error.code !== "not_found" && error.code !== "forbidden")) throw error;
    if (error.code === "forbidden") {
      const refused = renderLaunchRefused();
      return htmlResponse(refused.html, { status: 403, csp: refused.csp });
    }
    const page = renderLaunchNotFound();
    return htmlResponse(page.html, { status: 404, csp: page.csp });
  }
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { POST, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET"]);
