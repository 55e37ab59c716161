import { NextResponse, type NextRequest } from "next/server";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { getRequestUser } from "@/lib/server/auth/current-user";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { otherMethods } from "@/lib/server/http/other-methods";
import { cspNonce, escapeHtml, htmlDocument, htmlResponse } from "@/lib/server/launch/html";
import { renderLaunchPage } from "@/lib/server/launch/render-launch-page";
import { receiveDeepLinking, startDeepLinking } from "@/lib/server/lti13/deep-linking";
import { renderLti13Error } from "@/lib/server/lti13/render-lti13-error";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

function refusal(error: unknown): Response {
  if (!(error instanceof AppError) || error.code === "internal" || error.code === "unavailable") throw error;
  const page = renderLti13Error(error.status, error.message);
  return htmlResponse(page.html, { status: error.status, csp: page.csp });
}

/** GET /lti13/deep-linking?toolId=…&classId=…: a teacher opens the tool's content picker for a class. */
export async function GET(request: NextRequest): Promise<Response> {
  const user = await getRequestUser(request);
  if (!user?.profile) {
    const back = `${request.nextUrl.pathname}${request.nextUrl.search}`;
    return NextResponse.redirect(new URL(withCallbackUrl(user ? "/perfil" : "/login", back), env().HUB_BASE_URL), 303);
  }
  const profile = { id: user.profile.id, role: user.profile.role, institutionId: user.profile.institution.id };
  const query = request.nextUrl.searchParams;
  try {
    const page = renderLaunchPage(await startDeepLinking({ toolId: query.get("toolId") ?? "", classId: query.get("classId") ?? "", profile }));
    return htmlResponse(page.html, { csp: page.csp });
  } catch (error) {
    return refusal(error);
  }
}

/** POST /lti13/deep-linking: the tool's LtiDeepLinkingResponse (form field JWT, Deep Linking 2.0 §4.5). */
export async function POST(request: NextRequest): Promise<Response> {
  const type = request.headers.get("content-type") ?? "";
  const form = type.startsWith("application/x-www-form-urlencoded") ? new URLSearchParams(await request.text()) : null;
  const jwt = form?.get("JWT");
  if (!jwt) return refusal(new AppError("bad_request", "Resposta de deep linking sem o campo JWT."));
  try {
    const result = await receiveDeepLinking({ jwt });
    const nonce = cspNonce();
    const count = result.placementIds.length;
    const body =
      `<main><div class="card"><h1>${count === 1 ? "1 conteúdo adicionado" : `${count} conteúdos adicionados`}</h1>` +
      `<p>${escapeHtml(result.toolTitle)} → ${escapeHtml(result.className)}</p>` +
      (result.message ? `<p class="muted">${escapeHtml(result.message)}</p>` : "") +
      `<ul>${result.placementIds.map((id) => `<li data-placement-id="${escapeHtml(id)}"><a href="/launch/${escapeHtml(id)}">Abrir</a></li>`).join("")}</ul>` +
      `<p><a class="button" href="/">Voltar ao início</a></p></div></main>`;
    const csp = ["default-src 'none'", `style-src 'nonce-${nonce}'`, "form-action 'none'", "frame-ancestors 'none'", "base-uri 'none'"].join("; ");
    return htmlResponse(htmlDocument({ title: "Conteúdo adicionado", nonce, body }), { csp });
  } catch (error) {
    return refusal(error);
  }
}

export const { PUT, PATCH, DELETE, OPTIONS } = otherMethods(["GET", "POST"]);
