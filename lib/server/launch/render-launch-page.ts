import { cspNonce, escapeHtml, htmlDocument } from "./html";
import type { TBuiltLaunch } from "./build-launch";

export interface RenderedPage {
  html: string;
  csp: string;
}

// Submits at once. Chromium usually replaces the history entry of a page that navigates before it
// has loaded, so Back from the tool skips this page; but not always (a busy machine, another
// browser), and re-submitting on Back would bounce the person straight into the tool again. So
// Back to this page goes on to the gallery, as if the entry had been replaced (the "came back"
// note and its buttons stay for a browser that does not follow).
const AUTO_SUBMIT = `(function(){var n=performance.getEntriesByType?performance.getEntriesByType("navigation")[0]:null;` +
  `if(n&&n.type==="back_forward"){document.getElementById("lti-back").hidden=false;location.replace("/");return;}` +
  `document.getElementById("lti-launch").submit();})();`;

const BRAND = `<div class="brand"><span class="logo" aria-hidden="true">H</span>Hub Educacional</div>`;

/**
 * The page whose form carries the signed launch to the tool through the browser. Its CSP lets
 * the form post only to the tool's origin (and the hub), runs only this page's script, and
 * forbids framing, so another site cannot click it for the user.
 */
export function renderLaunchPage(launch: TBuiltLaunch): RenderedPage {
  const nonce = cspNonce();
  const title = escapeHtml(launch.toolTitle);
  const inputs = launch.fields
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join("");
  const body =
    `<main><div class="card">${BRAND}` +
    `<form id="lti-launch" method="post" action="${escapeHtml(launch.action)}" enctype="application/x-www-form-urlencoded" accept-charset="UTF-8">${inputs}` +
    `<h1>Abrindo ${title}…</h1>` +
    `<p class="muted">Você está sendo levado(a) para a ferramenta com o seu perfil do Hub.</p>` +
    `<div id="lti-back" hidden><p>Você voltou da ferramenta.</p><p><button type="submit">Abrir ${title} novamente</button> <a href="/">Voltar ao início</a></p></div>` +
    `<noscript><p><button type="submit">Continuar para ${title}</button></p></noscript>` +
    `</form></div></main>`;
  const csp = [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    `form-action 'self' ${launch.toolOrigin}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ].join("; ");
  return { html: htmlDocument({ title: `Abrindo ${launch.toolTitle}`, nonce, body, script: AUTO_SUBMIT }), csp };
}

/** A launch that will not happen: the status, a heading, the explanation, no form and no script. */
function renderLaunchError(status: 403 | 404, title: string, paragraphs: string): RenderedPage {
  const nonce = cspNonce();
  const body =
    `<main><div class="card">${BRAND}<p class="muted">Erro ${status}</p><h1>${title}</h1>${paragraphs}` +
    `<p><a class="button" href="/">Voltar ao início</a></p></div></main>`;
  const csp = ["default-src 'none'", `style-src 'nonce-${nonce}'`, "form-action 'none'", "frame-ancestors 'none'", "base-uri 'none'"].join("; ");
  return { html: htmlDocument({ title, nonce, body }), csp };
}

/** The same answer for "no such placement" and "not yours": nothing to learn from either. */
export function renderLaunchNotFound(): RenderedPage {
  return renderLaunchError(
    404,
    "Ferramenta não encontrada",
    `<p>Esta ferramenta não existe ou não está disponível para o perfil que você está usando. ` +
      `Se você tem outro perfil, troque de perfil no topo da página inicial.</p>`,
  );
}

/**
 * The refusal when the institution no longer shares data with the tool's edtech (its contract was
 * removed): 403, a readable reason, and no form — nothing is sent to the tool.
 */
export function renderLaunchRefused(): RenderedPage {
  return renderLaunchError(
    403,
    "Acesso à ferramenta suspenso",
    `<p>A escola não compartilha mais dados com este parceiro. Por isso, esta ferramenta não pode ser aberta: ` +
      `nenhum dado seu foi enviado a ela.</p>` +
      `<p class="muted">Se você acha que isso é um engano, fale com a gestão da sua escola.</p>`,
  );
}
