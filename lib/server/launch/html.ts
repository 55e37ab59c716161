// The launch page and the reference tool answer with plain HTML from route handlers: they must
// set their own Content-Security-Policy per response (a nonce, the tool's origin in form-action),
// which a React page cannot do. Everything interpolated goes through escapeHtml.
import { toWebResponse, type TPlainResponse } from "@/lib/server/http/plain-endpoint";

// The documents themselves are written in plain JavaScript, which server.mjs's request guard shares
// (lib/server/http/html-page.mjs); the answers around them are here.
export { cspNonce, escapeHtml, htmlDocument } from "@/lib/server/http/html-page.mjs";

export interface HtmlResponseOptions {
  status?: number;
  csp: string;
}

/** An HTML answer that no cache keeps: launch forms carry single-use nonces and personal data. */
export function htmlAnswer(html: string, { status = 200, csp }: HtmlResponseOptions): TPlainResponse {
  return {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Content-Security-Policy": csp,
      "X-Content-Type-Options": "nosniff",
    },
    text: html,
  };
}

/** htmlAnswer as a Response. */
export function htmlResponse(html: string, options: HtmlResponseOptions): Response {
  return toWebResponse(htmlAnswer(html, options));
}
