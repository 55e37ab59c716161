// HTTP for the LTI 1.3 authentication request (/lti13/authorize, GET or form POST, OIDC Core
// §3.1.2.1): plain endpoints (docs/decisions/033), which the route file adapts to Next and
// server.mjs serves on node:http without building a Request or a Response (a hot route: every
// student's LTI 1.3 launch passes here).
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { getRequestUser } from "@/lib/server/auth/current-user";
import type { TPlainRequest, TPlainResponse } from "@/lib/server/http/plain-endpoint";
import { mediaType } from "@/lib/server/http/media-type";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { htmlAnswer } from "@/lib/server/launch/html";
import { renderLaunchPage } from "@/lib/server/launch/render-launch-page";
import { authorizeLti13 } from "./authorize-lti13";
import { LTI13_PATHS } from "./platform-facts";
import { renderLti13Error } from "./render-lti13-error";

/**
 * The largest authentication request read from a POST body. Its parameters are a few ids, URLs and
 * the sealed message hint (under 2 KiB); 64 KiB leaves room and bounds what is buffered.
 */
const MAX_AUTHORIZE_BODY_BYTES = 64 * 1024;

function errorAnswer(status: number, message: string): TPlainResponse {
  const page = renderLti13Error(status, message);
  return htmlAnswer(page.html, { status, csp: page.csp });
}

/** The id_token form post for `params`, or where the person must go first. */
async function answer(params: URLSearchParams, user: Awaited<ReturnType<typeof getRequestUser>>): Promise<TPlainResponse> {
  const profile = user?.profile ? { id: user.profile.id, role: user.profile.role, institutionId: user.profile.institution.id } : null;
  try {
    const outcome = await authorizeLti13({ params, profile });
    if (outcome.kind === "sign_in") {
      const back = `${LTI13_PATHS.authorize}?${params.toString()}`;
      return { status: 303, headers: { Location: new URL(withCallbackUrl(user ? "/perfil" : "/login", back), env().HUB_BASE_URL).toString() } };
    }
    const page = renderLaunchPage(outcome.launch);
    return htmlAnswer(page.html, { csp: page.csp });
  } catch (error) {
    if (!(error instanceof AppError) || error.code === "internal" || error.code === "unavailable") throw error;
    return errorAnswer(error.status, error.message);
  }
}

export async function lti13AuthorizeGet(request: TPlainRequest): Promise<TPlainResponse> {
  return answer(request.query, await getRequestUser(request));
}

export async function lti13AuthorizePost(request: TPlainRequest): Promise<TPlainResponse> {
  if (mediaType(request.header("content-type")) !== "application/x-www-form-urlencoded") {
    return errorAnswer(415, "Envie o pedido como formulário (application/x-www-form-urlencoded).");
  }
  const [body, user] = await Promise.all([request.text(MAX_AUTHORIZE_BODY_BYTES), getRequestUser(request)]);
  if (body === null) return errorAnswer(413, "O pedido passa do limite de 64 KiB. Nada foi feito.");
  const params = new URLSearchParams(body);
  // A tool's cross-site form POST arrives without the session cookie (SameSite=Lax), and so does
  // a redirect from it (Chromium keeps the cookie off the whole chain): the hub would ask a
  // signed-in person to sign in and choose a profile again. A page of the hub posts the same
  // request again, now same-site, with the cookie; that post is not cross-site, so no loop.
  if (!user && request.header("sec-fetch-site") === "cross-site") {
    const action = new URL(LTI13_PATHS.authorize, env().HUB_BASE_URL);
    const page = renderLaunchPage({ action: action.toString(), fields: [...params], toolOrigin: action.origin, toolTitle: "a ferramenta" });
    return htmlAnswer(page.html, { csp: page.csp });
  }
  return answer(params, user);
}
