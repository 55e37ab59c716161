// The launch page and the reference tool answer with plain HTML from route handlers: they must
// set their own Content-Security-Policy per response (a nonce, the tool's origin in form-action),
// which a React page cannot do. Everything interpolated goes through escapeHtml.
import { randomBytes } from "node:crypto";
import { toWebResponse, type TPlainResponse } from "@/lib/server/http/plain-endpoint";

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** 128 random bits for a CSP nonce (CSP3 asks for at least 128). */
export function cspNonce(): string {
  return randomBytes(16).toString("base64");
}

/** The hub's look, kept small: these pages load no stylesheet and no script but their own. */
const BASE_STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;background:#f8fafc;color:#0f172a;line-height:1.5}
main{max-width:56rem;margin:0 auto;padding:2.5rem 1rem}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:.75rem;padding:1.5rem;box-shadow:0 1px 2px rgba(15,23,42,.05)}
h1{font-size:1.5rem;margin:0 0 .5rem}
h2{font-size:1.125rem;margin:2rem 0 .75rem}
p{margin:.5rem 0}
.muted{color:#475569;font-size:.875rem}
.badge{display:inline-block;border-radius:999px;padding:.125rem .625rem;font-size:.75rem;font-weight:600}
.ok{background:#dcfce7;color:#166534}.fail{background:#fee2e2;color:#991b1b}
button,.button{display:inline-block;border:0;border-radius:.375rem;background:#1d5fd1;color:#fff;font:inherit;font-weight:500;padding:.5rem 1rem;cursor:pointer;text-decoration:none}
button:hover,.button:hover{background:#174ba6}
a{color:#1d5fd1}
code{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.8125rem;word-break:break-all}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.5rem 1.5rem;margin:1rem 0}
dt{font-weight:600;color:#334155}dd{margin:0;word-break:break-word}
table{width:100%;border-collapse:collapse;font-size:.875rem}
th,td{text-align:left;vertical-align:top;border-top:1px solid #e2e8f0;padding:.375rem .5rem}
th{color:#334155;font-weight:600}
.brand{display:flex;align-items:center;gap:.5rem;font-weight:600;color:#0f2a5c;margin-bottom:1.5rem}
.logo{display:grid;place-items:center;width:2rem;height:2rem;border-radius:.5rem;background:#1d5fd1;color:#fff}
.tool .logo{background:#0f766e}
`;

export interface HtmlDocumentOptions {
  title: string;
  /** Nonce allowing the page's own <style> (and <script>, if any). */
  nonce: string;
  body: string;
  script?: string;
  bodyClass?: string;
}

export function htmlDocument({ title, nonce, body, script, bodyClass }: HtmlDocumentOptions): string {
  const n = escapeHtml(nonce);
  return (
    `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex">` +
    `<title>${escapeHtml(title)}</title><style nonce="${n}">${BASE_STYLE}</style></head>` +
    `<body${bodyClass ? ` class="${escapeHtml(bodyClass)}"` : ""}>${body}` +
    (script ? `<script nonce="${n}">${script}</script>` : "") +
    `</body></html>`
  );
}

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
