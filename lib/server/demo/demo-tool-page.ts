// The reference tool's pages (DEMO_TOOL=1): plain HTML, like the launch page, because the route sets
// its own Content-Security-Policy per response and an App Router route handler cannot render React
// (react-dom/server is refused under the react-server condition; docs/decisions/020-where-code-lives.md).
// Everything interpolated goes through launch/html.ts's escapeHtml.
import { cspNonce, escapeHtml, htmlDocument } from "@/lib/server/launch/html";
import type { RenderedPage } from "@/lib/server/launch/render-launch-page";

/** What each verifier rule means, for the edtech developer reading a refusal. Not private. */
const RULE_HELP: Record<string, string> = {
  methodIsPost: "O lançamento precisa ser um POST.",
  urlIsHttp: "O endereço do lançamento precisa ser http(s).",
  oauthParamsUnique: "Um parâmetro oauth_* foi enviado mais de uma vez.",
  consumerKeyPresent: "Falta o parâmetro oauth_consumer_key.",
  signatureMethodIsHmacSha1: "oauth_signature_method precisa ser HMAC-SHA1.",
  oauthVersionIs1_0: "oauth_version precisa ser 1.0.",
  timestampIsNumeric: "oauth_timestamp precisa ser um horário Unix em segundos.",
  timestampWithinWindow: "oauth_timestamp está a mais de 300 segundos do relógio da ferramenta.",
  nonceNotEmpty: "Falta o parâmetro oauth_nonce.",
  consumerKeyKnown: "A oauth_consumer_key não é conhecida por esta ferramenta.",
  signatureMatches: "A assinatura não confere: segredo, parâmetros ou endereço diferentes dos assinados.",
  nonceUnused: "Este oauth_nonce já foi usado: o mesmo lançamento foi enviado de novo.",
  ltiMessageTypeIsBasicLaunch: "lti_message_type precisa ser basic-lti-launch-request.",
  ltiVersionIs1p0: "lti_version precisa ser LTI-1p0.",
  resourceLinkIdPresent: "Falta o parâmetro resource_link_id.",
};

const HEADER = `<div class="brand tool"><span class="logo" aria-hidden="true">D</span>Ferramenta de Demonstração</div>`;

function pageCsp(nonce: string): string {
  return ["default-src 'none'", `style-src 'nonce-${nonce}'`, "form-action 'none'", "frame-ancestors 'none'", "base-uri 'none'"].join("; ");
}

function row(label: string, value: string | undefined, id?: string): string {
  const shown = value ? `<code${id ? ` id="${id}"` : ""}>${escapeHtml(value)}</code>` : `<span class="muted">não enviado</span>`;
  return `<dt>${escapeHtml(label)}</dt><dd>${shown}</dd>`;
}

/** "urn:lti:role:ims/lis/Instructor" → "Instructor"; roles is a comma-separated list. */
function shortRoles(roles: string | undefined): string | undefined {
  if (!roles) return undefined;
  return roles.split(",").map((r) => r.trim().split("/").pop() ?? r).join(", ");
}

/** Only an http(s) return URL becomes a link (a javascript: URL in a signed field is still a URL). */
function safeReturnUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:" ? value : undefined;
  } catch {
    return undefined;
  }
}

export interface AcceptedLaunchView {
  params: Record<string, string>;
  received: Array<[string, string]>;
}

/** The verified launch, shown back: what a tool would use to start the user's session. */
export function renderDemoLaunchAccepted({ params, received }: AcceptedLaunchView): RenderedPage {
  const nonce = cspNonce();
  const context = params.context_id
    ? `${params.context_title ?? ""}${params.context_label ? ` (${params.context_label})` : ""}`
    : undefined;
  const returnUrl = safeReturnUrl(params.launch_presentation_return_url);
  const table = received
    .map(([name, value]) => `<tr><th scope="row"><code>${escapeHtml(name)}</code></th><td><code>${escapeHtml(value)}</code></td></tr>`)
    .join("");
  const body =
    `<main><div class="card">${HEADER}` +
    `<p><span class="badge ok">Assinatura válida</span></p>` +
    `<h1>Lançamento LTI recebido</h1>` +
    `<p class="muted">A assinatura OAuth 1.0 (HMAC-SHA1), o horário, o nonce e os parâmetros LTI foram verificados. ` +
    `Uma ferramenta real abriria agora a sessão deste usuário no recurso pedido.</p>` +
    `<dl>` +
    row("Usuário (user_id)", params.user_id, "lti-user-id") +
    row("Papel", shortRoles(params.roles), "lti-roles") +
    row("Contexto", context) +
    row("Link de recurso", params.resource_link_id) +
    row("Título do recurso", params.resource_link_title) +
    row("Nome (lis_person_name_full)", params.lis_person_name_full) +
    row("E-mail (lis_person_contact_email_primary)", params.lis_person_contact_email_primary) +
    row("Plataforma", params.tool_consumer_instance_name) +
    `</dl>` +
    (returnUrl ? `<p><a class="button" href="${escapeHtml(returnUrl)}">Voltar ao Hub</a></p>` : "") +
    `<h2>Todos os parâmetros recebidos</h2>` +
    `<table><thead><tr><th scope="col">Parâmetro</th><th scope="col">Valor</th></tr></thead><tbody>${table}</tbody></table>` +
    `</div></main>`;
  return { html: htmlDocument({ title: "Lançamento recebido · Ferramenta de Demonstração", nonce, body }), csp: pageCsp(nonce) };
}

/**
 * The 401 page. It names the failed rule (a protocol fact, useful to an edtech debugging its
 * integration) and nothing from the request: no user, no roles, no parameters.
 */
export function renderDemoLaunchRefused({ rule }: { rule: string }): RenderedPage {
  const nonce = cspNonce();
  const help = RULE_HELP[rule] ?? "O lançamento não passou na verificação.";
  const body =
    `<main><div class="card">${HEADER}` +
    `<p><span class="badge fail">Não autorizado</span></p>` +
    `<h1>Lançamento recusado</h1>` +
    `<p>A ferramenta não pôde confirmar que este lançamento veio do Hub. Nenhum conteúdo foi aberto.</p>` +
    `<dl><dt>Regra</dt><dd><code id="lti-rule">${escapeHtml(rule)}</code></dd><dt>Motivo</dt><dd>${escapeHtml(help)}</dd></dl>` +
    `<p class="muted">Volte ao Hub e abra a ferramenta de novo pela galeria. Cada lançamento só pode ser usado uma vez.</p>` +
    `</div></main>`;
  return { html: htmlDocument({ title: "Lançamento recusado · Ferramenta de Demonstração", nonce, body }), csp: pageCsp(nonce) };
}

/** DEMO_TOOL off: the endpoint does not exist. */
export function renderDemoToolDisabled(): RenderedPage {
  const nonce = cspNonce();
  const body = `<main><div class="card"><p class="muted">Erro 404</p><h1>Página não encontrada</h1></div></main>`;
  return { html: htmlDocument({ title: "Página não encontrada", nonce, body }), csp: pageCsp(nonce) };
}
