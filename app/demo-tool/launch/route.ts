import { env } from "@/lib/env";
import { htmlResponse } from "@/lib/server/launch/html";
import { readRequestBody } from "@/lib/server/http/read-request-body";
import { receiveDemoLaunch } from "@/lib/server/launch/receive-demo-launch";
import { renderDemoLaunchAccepted, renderDemoLaunchRefused, renderDemoToolDisabled } from "@/lib/server/launch/render-demo-tool-page";
import { otherMethods } from "@/lib/server/http/other-methods";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** A launch is a few kilobytes; anything far larger is not one. */
const MAX_BODY_BYTES = 64 * 1024;

/** POST /demo-tool/launch: the reference LTI 1.0 tool provider (DEMO_TOOL=1 only). */
export async function POST(request: Request): Promise<Response> {
  if (env().DEMO_TOOL !== "1") {
    const page = renderDemoToolDisabled();
    return htmlResponse(page.html, { status: 404, csp: page.csp });
  }
  const { pathname, search } = new URL(request.url);
  // The signature covers the URL the browser posted to; behind a proxy only HUB_BASE_URL knows it.
  const url = `${env().HUB_BASE_URL}${pathname}${search}`;
  const body = await readRequestBody(request, MAX_BODY_BYTES);
  const { result, received } = await receiveDemoLaunch({
    method: request.method,
    url,
    contentType: request.headers.get("content-type"),
    body: body ?? "",
  });
  const page = result.ok ? renderDemoLaunchAccepted({ params: result.params, received }) : renderDemoLaunchRefused({ rule: result.rule });
  return htmlResponse(page.html, { status: result.ok ? 200 : 401, csp: page.csp });
}

/** RFC 9110 §15.5.6: the other methods answer 405 with Allow (lib/server/http/other-methods.ts). */
export const { GET, HEAD, PUT, PATCH, DELETE, OPTIONS } = otherMethods(["POST"]);
