// GET /launch/{placementId}: the signed LTI 1.0 launch form for the session's profile. A plain
// endpoint (docs/decisions/033): the route file serves it through Next, server.mjs's hot route on
// node:http.
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { TPlainRequest, TPlainResponse } from "@/lib/server/http/plain-endpoint";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { launchOf } from "./build-launch";
import { htmlAnswer } from "./html";
import { readLaunch } from "./read-launch";
import { renderLaunchNotFound, renderLaunchPage, renderLaunchRefused } from "./render-launch-page";

/** Launches that will not happen, each with its page: not yours or gone (404), no longer shared (403). */
const REFUSALS: Partial<Record<AppError["code"], { status: number; render: () => { html: string; csp: string } }>> = {
  not_found: { status: 404, render: renderLaunchNotFound },
  forbidden: { status: 403, render: renderLaunchRefused },
};

export async function launchPage(request: TPlainRequest, params: Readonly<Record<string, string>>): Promise<TPlainResponse> {
  const placementId = params.placementId ?? "";
  const { user, placement } = await readLaunch(request, placementId);
  if (!user?.profile) {
    const back = `/launch/${encodeURIComponent(placementId)}`;
    // Redirect targets come from HUB_BASE_URL, never from the Host header.
    const location = new URL(withCallbackUrl(user ? "/perfil" : "/login", back), env().HUB_BASE_URL);
    return { status: 303, headers: { Location: location.toString() } };
  }
  const profile = { id: user.profile.id, role: user.profile.role, institutionId: user.profile.institution.id };
  try {
    const page = renderLaunchPage(await launchOf(placement, { profile }));
    return htmlAnswer(page.html, { csp: page.csp });
  } catch (error) {
    const refusal = error instanceof AppError ? REFUSALS[error.code] : undefined;
    if (!refusal) throw error;
    const page = refusal.render();
    return htmlAnswer(page.html, { status: refusal.status, csp: page.csp });
  }
}
