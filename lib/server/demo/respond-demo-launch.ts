import { env } from "@/lib/env";
import { readRequestBody } from "@/lib/server/http/read-request-body";
import { htmlResponse } from "@/lib/server/launch/html";
import { renderDemoLaunchAccepted, renderDemoLaunchRefused, renderDemoToolDisabled } from "./demo-tool-page";
import { receiveDemoLaunch } from "./receive-demo-launch";

/** A launch is a few kilobytes; anything far larger is not one. */
const MAX_BODY_BYTES = 64 * 1024;

/** The reference tool's answer to a launch POST: the verified launch (200), the failed rule (401), or 404 when DEMO_TOOL is off. */
export async function respondDemoLaunch(request: Request): Promise<Response> {
  if (env().DEMO_TOOL !== "1") {
    const page = renderDemoToolDisabled();
    return htmlResponse(page.html, { status: 404, csp: page.csp });
  }
  const { pathname, search } = new URL(request.url);
  // The signature covers the URL the browser posted to; behind a proxy only HUB_BASE_URL knows it.
  const url = `${env().HUB_BASE_URL}${pathname}${search}`;
  const body = await readRequestBody(request, MAX_BODY_BYTES);
  const { result, received } = await receiveDemoLaunch({ method: request.method, url, contentType: request.headers.get("content-type"), body: body ?? "" });
  const page = result.ok ? renderDemoLaunchAccepted({ params: result.params, received }) : renderDemoLaunchRefused({ rule: result.rule });
  return htmlResponse(page.html, { status: result.ok ? 200 : 401, csp: page.csp });
}
