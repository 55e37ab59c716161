// The reference tool's pages (DEMO_TOOL=1), rendered with React to static HTML: the route sets
// its own Content-Security-Policy with a nonce per response, which a React page cannot do, so the
// markup goes into lib/server/launch/html.ts's document. React escapes every value.
import type { ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { cspNonce, htmlDocument } from "@/lib/server/launch/html";
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

function pageCsp(nonce: string): string {
  return ["default-src 'none'", `style-src 'nonce-${nonce}'`, "form-action 'none'", "frame-ancestors 'none'", "base-uri 'none'"].join("; ");
}

function render(title: string, body: ReactNode): RenderedPage {
  const nonce = cspNonce();
  return { html: htmlDocument({ title, nonce, body: renderToStaticMarkup(body) }), csp: pageCsp(nonce) };
}

function ToolCard({ children }: { children: ReactNode }) {
  return (
    <main>
      <div className="card">
        <div className="brand tool">
          <span className="logo" aria-hidden="true">D</span>Ferramenta de Demonstração
        </div>
        {children}
      </div>
    </main>
  );
}

function Row({ label, value, id }: { label: string; value: string | undefined; id?: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value ? <code id={id}>{value}</code> : <span className="muted">não enviado</span>}</dd>
    </>
  );
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
  const context = params.context_id ? `${params.context_title ?? ""}${params.context_label ? ` (${params.context_label})` : ""}` : undefined;
  const returnUrl = safeReturnUrl(params.launch_presentation_return_url);
  return render(
    "Lançamento recebido · Ferramenta de Demonstração",
    <ToolCard>
      <p>
        <span className="badge ok">Assinatura válida</span>
      </p>
      <h1>Lançamento LTI recebido</h1>
      <p className="muted">
        A assinatura OAuth 1.0 (HMAC-SHA1), o horário, o nonce e os parâmetros LTI foram verificados. Uma ferramenta real abriria agora a sessão deste usuário
        no recurso pedido.
      </p>
      <dl>
        <Row label="Usuário (user_id)" value={params.user_id} id="lti-user-id" />
        <Row label="Papel" value={shortRoles(params.roles)} id="lti-roles" />
        <Row label="Contexto" value={context} />
        <Row label="Link de recurso" value={params.resource_link_id} />
        <Row label="Título do recurso" value={params.resource_link_title} />
        <Row label="Nome (lis_person_name_full)" value={params.lis_person_name_full} />
        <Row label="E-mail (lis_person_contact_email_primary)" value={params.lis_person_contact_email_primary} />
        <Row label="Plataforma" value={params.tool_consumer_instance_name} />
      </dl>
      {returnUrl && (
        <p>
          <a className="button" href={returnUrl}>
            Voltar ao Hub
          </a>
        </p>
      )}
      <h2>Todos os parâmetros recebidos</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">Parâmetro</th>
            <th scope="col">Valor</th>
          </tr>
        </thead>
        <tbody>
          {received.map(([name, value], i) => (
            <tr key={i}>
              <th scope="row">
                <code>{name}</code>
              </th>
              <td>
                <code>{value}</code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ToolCard>,
  );
}

/**
 * The 401 page. It names the failed rule (a protocol fact, useful to an edtech debugging its
 * integration) and nothing from the request: no user, no roles, no parameters.
 */
export function renderDemoLaunchRefused({ rule }: { rule: string }): RenderedPage {
  return render(
    "Lançamento recusado · Ferramenta de Demonstração",
    <ToolCard>
      <p>
        <span className="badge fail">Não autorizado</span>
      </p>
      <h1>Lançamento recusado</h1>
      <p>A ferramenta não pôde confirmar que este lançamento veio do Hub. Nenhum conteúdo foi aberto.</p>
      <dl>
        <dt>Regra</dt>
        <dd>
          <code id="lti-rule">{rule}</code>
        </dd>
        <dt>Motivo</dt>
        <dd>{RULE_HELP[rule] ?? "O lançamento não passou na verificação."}</dd>
      </dl>
      <p className="muted">Volte ao Hub e abra a ferramenta de novo pela galeria. Cada lançamento só pode ser usado uma vez.</p>
    </ToolCard>,
  );
}

/** DEMO_TOOL off: the endpoint does not exist. */
export function renderDemoToolDisabled(): RenderedPage {
  return render(
    "Página não encontrada",
    <main>
      <div className="card">
        <p className="muted">Erro 404</p>
        <h1>Página não encontrada</h1>
      </div>
    </main>,
  );
}
