// The reference LTI 1.3 tool (DEMO_TOOL=1), beside the LTI 1.0 one: /demo-tool/lti13/login takes
// the hub's login initiation and sends the browser to the authorization endpoint with a fresh
// state (bound to the browser by a cookie) and nonce; /demo-tool/lti13/launch checks the id_token
// as a correct tool does (lib/lti13/validate-launch.ts: RS256, kid in the hub's JWKS, iss, aud,
// exp, nonce = the one it sent and single use, deployment_id, message) and shows the claims. A
// developer registers a tool with these two URLs to see what the hub sends.
import { createHmac, randomBytes } from "node:crypto";
import { createLocalJWKSet } from "jose";
import { env } from "@/lib/env";
import { openMessageHint, sealMessageHint } from "@/lib/lti13/message-hint";
import { validateLaunch } from "@/lib/lti13/validate-launch";
import { hubSecret } from "@/lib/server/crypto/hub-secret";
import { isUuidText } from "@/lib/server/crypto/uuid-permutation";
import { database } from "@/lib/server/db/database";
import { cspNonce, escapeHtml, htmlDocument, htmlResponse } from "@/lib/server/launch/html";
import { rememberNonce } from "@/lib/server/lti-nonces/remember-nonce";
import { listPublicJwks } from "@/lib/server/oauth/signing-keys";
import { LTI13_PATHS } from "@/lib/server/lti13/platform-facts";
import { readRequestBody } from "@/lib/server/http/read-request-body";
import { renderDemoLaunchRefused, renderDemoToolDisabled } from "./demo-tool-page";

export const DEMO13_PATHS = { login: "/demo-tool/lti13/login", launch: "/demo-tool/lti13/launch" } as const;
const STATE_COOKIE = "demo13_state";
const STATE_SECONDS = 300;

const stateKey = () => createHmac("sha256", hubSecret()).update("hub/demo-tool/lti13-state/v1").digest();

function refused(rule: string): Response {
  const page = renderDemoLaunchRefused({ rule });
  return htmlResponse(page.html, { status: 401, csp: page.csp });
}

function disabled(): Response | null {
  if (env().DEMO_TOOL === "1") return null;
  const page = renderDemoToolDisabled();
  return htmlResponse(page.html, { status: 404, csp: page.csp });
}

async function formOf(request: Request): Promise<URLSearchParams> {
  if (request.method === "GET") return new URL(request.url).searchParams;
  return new URLSearchParams((await readRequestBody(request, 64 * 1024)) ?? "");
}

/** Third-party initiated login (GET or POST): redirect to the hub's authorization endpoint. */
export async function respondDemo13Login(request: Request): Promise<Response> {
  const off = disabled();
  if (off) return off;
  const base = env().HUB_BASE_URL;
  const form = await formOf(request);
  const clientId = form.get("client_id") ?? "";
  if (form.get("iss") !== base) return refused("issuerKnown");
  if (!isUuidText(clientId)) return refused("clientIdKnown");
  const nonce = randomBytes(16).toString("base64url");
  const state = sealMessageHint({ t: nonce, p: "demo13", c: clientId, m: "LtiResourceLinkRequest", e: Math.floor(Date.now() / 1000) + STATE_SECONDS }, stateKey());
  const authorize = new URL(`${base}${LTI13_PATHS.authorize}`);
  const params: Record<string, string> = {
    scope: "openid",
    response_type: "id_token",
    response_mode: "form_post",
    prompt: "none",
    client_id: clientId,
    redirect_uri: `${base}${DEMO13_PATHS.launch}`,
    login_hint: form.get("login_hint") ?? "",
    lti_message_hint: form.get("lti_message_hint") ?? "",
    state,
    nonce,
  };
  for (const [name, value] of Object.entries(params)) authorize.searchParams.set(name, value);
  const secure = base.startsWith("https:") ? "; Secure" : "";
  return new Response(null, {
    status: 302,
    headers: { Location: authorize.toString(), "Set-Cookie": `${STATE_COOKIE}=${state}; Path=/demo-tool/lti13; HttpOnly; SameSite=Lax; Max-Age=${STATE_SECONDS}${secure}`, "Cache-Control": "no-store" },
  });
}

function cookieValue(request: Request, name: string): string | null {
  for (const part of (request.headers.get("cookie") ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return null;
}

/** The id_token form post: 200 with the claims, or 401 naming the one rule that failed. */
export async function respondDemo13Launch(request: Request): Promise<Response> {
  const off = disabled();
  if (off) return off;
  const form = await formOf(request);
  const stateText = form.get("state") ?? "";
  // The state must be the one this browser was given, and still sealed and fresh.
  if (!stateText || cookieValue(request, STATE_COOKIE) !== stateText) return refused("stateMatchesBrowser");
  const state = openMessageHint(stateText, stateKey(), Math.floor(Date.now() / 1000));
  if (!state) return refused("stateMatchesBrowser");
  const [registration] = await database().sql.query<{ deploymentId: string }>(`SELECT "deploymentId" FROM "ToolLti13" WHERE "clientId" = $1::uuid`, [state.c]);
  if (!registration) return refused("clientIdKnown");
  const result = await validateLaunch(form.get("id_token") ?? undefined, {
    issuer: env().HUB_BASE_URL,
    clientId: state.c,
    // The hub's published keys, read fresh: an unknown kid is refused, as a tool reading the JWKS would.
    keys: createLocalJWKSet({ keys: await listPublicJwks() }),
    deploymentIds: [registration.deploymentId],
    rememberNonce: async (nonce) => nonce === state.t && (await rememberNonce({ consumerKey: `demo13:${state.c}`, nonce })),
  });
  if (!result.ok) return refused(result.rule);
  const nonce = cspNonce();
  const claims = JSON.stringify(result.claims, null, 2);
  const body =
    `<main><div class="card"><div class="brand tool"><span class="logo" aria-hidden="true">D</span>Ferramenta de Demonstração (LTI 1.3)</div>` +
    `<p><span class="badge ok">Lançamento verificado</span></p><h1>${escapeHtml(result.messageType)}</h1>` +
    `<p>Identificador do perfil nesta ferramenta (sub): <code id="lti13-sub">${escapeHtml(String(result.claims.sub))}</code></p>` +
    `<h2>Claims recebidos</h2><pre id="lti13-claims">${escapeHtml(claims)}</pre></div></main>`;
  const csp = ["default-src 'none'", `style-src 'nonce-${nonce}'`, "form-action 'none'", "frame-ancestors 'none'", "base-uri 'none'"].join("; ");
  return htmlResponse(htmlDocument({ title: "Lançamento LTI 1.3 · Ferramenta de Demonstração", nonce, body }), { csp });
}
