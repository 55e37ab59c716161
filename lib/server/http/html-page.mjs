// @ts-check
// Whole HTML documents written as strings: the launch page, the reference tool's pages and the
// error pages answered where React cannot render (route handlers refuse react-dom/server, ADR 020;
// server.mjs's request guard answers before Next). Plain JavaScript so that the guard, which node
// runs with no build step, draws the same error page as the route handlers. Everything
// interpolated goes through escapeHtml, the hub's only one.
import { randomBytes } from "node:crypto";

/** @type {Record<string, string>} */
const ENTITIES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/**
 * @param {string} value
 * @returns {string}
 */
export function escapeHtml(value) {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/**
 * 128 random bits for a CSP nonce (CSP3 asks for at least 128).
 * @returns {string}
 */
export function cspNonce() {
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

/**
 * @typedef {object} THtmlDocumentOptions
 * @property {string} title
 * @property {string} nonce Nonce allowing the page's own <style> (and <script>, if any).
 * @property {string} body
 * @property {string} [script]
 * @property {string} [bodyClass]
 */

/**
 * @param {THtmlDocumentOptions} options
 * @returns {string}
 */
export function htmlDocument({ title, nonce, body, script, bodyClass }) {
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

const BRAND = `<div class="brand"><span class="logo" aria-hidden="true">H</span>Hub Educacional</div>`;

/**
 * @typedef {object} TErrorPage
 * @property {number} status
 * @property {string} title The heading, and the document's title: what happened.
 * @property {string} text One paragraph: why, and what to do now.
 * @property {{ href: string; label: string }} link Where to go from here.
 * @property {string} [detail] A code to quote to support (a 500's request id).
 */

/**
 * A refusal a person reads: the status, a heading saying what happened, what to do, and a link
 * on; no form and no script. Its CSP allows its own style and nothing else.
 * @param {TErrorPage} page
 * @returns {{ html: string; csp: string }}
 */
export function errorPage({ status, title, text, link, detail }) {
  const nonce = cspNonce();
  const body =
    `<main><div class="card">${BRAND}<p class="muted">Erro ${status}</p><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p>` +
    (detail ? `<p class="muted">Código para o suporte: <code>${escapeHtml(detail)}</code></p>` : "") +
    `<p><a class="button" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p></div></main>`;
  const csp = ["default-src 'none'", `style-src 'nonce-${nonce}'`, "form-action 'none'", "frame-ancestors 'none'", "base-uri 'none'"].join("; ");
  return { html: htmlDocument({ title, nonce, body }), csp };
}

/**
 * The refusal of a form posted from a page that is not the hub's own, for the form routes
 * (form-post.ts) and the request guard's pages alike. Usually the hub opened at another of its
 * addresses (127.0.0.1 for localhost): server.mjs sends a page's GET to the base URL first, so this
 * is a page left open from before, one served through a proxy that rewrites the host without
 * saying so, or another site's form. Either way the way on is the sign-in page at the base URL.
 * @param {string} baseUrl HUB_BASE_URL
 * @returns {TErrorPage}
 */
export function otherAddressPage(baseUrl) {
  return {
    status: 403,
    title: "Formulário enviado de outro endereço",
    text:
      `A página deste formulário foi aberta em um endereço que não é o do Hub (${new URL(baseUrl).host}). ` +
      "Por segurança, o Hub só aceita formulários das próprias páginas: o envio foi recusado e nada foi alterado. " +
      "Abra a página de entrada no endereço do Hub e tente de novo.",
    link: signInLink(baseUrl),
  };
}

/**
 * @param {string} baseUrl
 * @returns {TErrorPage["link"]}
 */
export function signInLink(baseUrl) {
  return { href: `${baseUrl}/login`, label: "Ir para a página de entrada" };
}

/**
 * @param {string} baseUrl
 * @returns {TErrorPage["link"]}
 */
export function homeLink(baseUrl) {
  return { href: `${baseUrl}/`, label: "Voltar ao início" };
}
