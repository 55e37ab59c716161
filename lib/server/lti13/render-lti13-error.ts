import { cspNonce, escapeHtml, htmlDocument } from "@/lib/server/launch/html";
import type { RenderedPage } from "@/lib/server/launch/render-launch-page";

/** A refused LTI 1.3 login: the status, the rule that failed (for the tool's developer), no form. */
export function renderLti13Error(status: number, message: string): RenderedPage {
  const nonce = cspNonce();
  const body =
    `<main><div class="card"><p class="muted">Erro ${status}</p><h1>Não foi possível abrir a ferramenta</h1>` +
    `<p>${escapeHtml(message)}</p><p><a class="button" href="/">Voltar ao início</a></p></div></main>`;
  const csp = ["default-src 'none'", `style-src 'nonce-${nonce}'`, "form-action 'none'", "frame-ancestors 'none'", "base-uri 'none'"].join("; ");
  return { html: htmlDocument({ title: "Não foi possível abrir a ferramenta", nonce, body }), csp };
}
