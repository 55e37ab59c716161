// The launch tester for an LTI 1.3 tool (issue #21 point 5). For each case the hub plays platform
// and browser from its server: it posts a login initiation to the tool's login URL, reads the
// state and nonce from the tool's redirect to /lti13/authorize (and the cookies it set), then posts
// an id_token to the tool's redirect URI. One valid launch, then cases a correct tool must refuse:
// the same id_token again (nonce reused), an expired one, one for another audience, one signed by
// a key the hub does not publish (unknown kid), one for another deployment. Each negative case
// breaks one thing; everything else is valid, with the tool's own fresh state and nonce.
import { randomUUID } from "node:crypto";
import { importJWK, SignJWT } from "jose";
import { env } from "@/lib/env";
import { buildLtiClaims, loginInitiationFields } from "@/lib/lti13/claims";
import { generateSigningKey, type SigningKey } from "@/lib/oauth/jwt";
import { getSigningKey } from "@/lib/server/oauth/signing-keys";
import { LTI13_PATHS } from "@/lib/server/lti13/platform-facts";
import { postLaunch, type TPostResult } from "./post-launch";
import type { TLaunchTarget } from "./resolve-launch-target";

export type TLti13CaseId = "valid" | "replayed_nonce" | "expired_id_token" | "wrong_aud" | "unknown_kid" | "wrong_deployment_id";

export interface TLti13Case {
  id: TLti13CaseId;
  label: string;
  description: string;
  expect: "accept" | "refuse";
}

export const LTI13_CASES: readonly TLti13Case[] = [
  { id: "valid", label: "Lançamento válido", description: "id_token RS256 com a chave publicada do Hub, com o state e o nonce que a ferramenta gerou.", expect: "accept" },
  { id: "replayed_nonce", label: "Nonce repetido", description: "O mesmo id_token válido, reenviado idêntico.", expect: "refuse" },
  { id: "expired_id_token", label: "id_token expirado", description: "exp uma hora atrás.", expect: "refuse" },
  { id: "wrong_aud", label: "aud errado", description: "aud de outro client_id.", expect: "refuse" },
  { id: "unknown_kid", label: "kid desconhecido", description: "Assinado com uma chave que o Hub não publica no JWKS.", expect: "refuse" },
  { id: "wrong_deployment_id", label: "deployment_id errado", description: "deployment_id que não é o desta ferramenta.", expect: "refuse" },
];

export interface TLti13TestRegistration {
  clientId: string;
  deploymentId: string;
  targetLinkUri: string;
}

export interface TLti13Exchange {
  /** POST the login initiation, answering the tool's redirect (status, Location, cookies). */
  login(fields: Array<[string, string]>): Promise<TPostResult>;
  /** POST the id_token form to the tool's redirect URI with the tool's cookies. */
  launch(redirectUri: string, fields: Array<[string, string]>, cookie: string): Promise<TPostResult>;
}

/** The cookies a response set, as a Cookie header (name=value only). */
function cookieHeader(setCookies: readonly string[] | undefined): string {
  return (setCookies ?? []).map((c) => c.split(";")[0]!.trim()).filter(Boolean).join("; ");
}

type TLoginOutcome = { ok: true; state: string | null; nonce: string; redirectUri: string; cookie: string } | { ok: false; status: number | null; note: string };

async function startLogin(exchange: TLti13Exchange, registration: TLti13TestRegistration): Promise<TLoginOutcome> {
  const base = env().HUB_BASE_URL;
  const answer = await exchange.login(
    loginInitiationFields({
      issuer: base,
      loginHint: randomUUID(),
      targetLinkUri: registration.targetLinkUri,
      messageHint: "teste-de-lancamento",
      clientId: registration.clientId,
      deploymentId: registration.deploymentId,
    }),
  );
  if (answer.status === null) return { ok: false, status: null, note: answer.error };
  const location = answer.location ? new URL(answer.location, base) : null;
  if (!(answer.status >= 300 && answer.status < 400) || !location || `${location.origin}${location.pathname}` !== `${base}${LTI13_PATHS.authorize}`) {
    return { ok: false, status: answer.status, note: `O endereço de login deveria redirecionar (302) para ${base}${LTI13_PATHS.authorize}.` };
  }
  const nonce = location.searchParams.get("nonce");
  const redirectUri = location.searchParams.get("redirect_uri");
  if (!nonce || !redirectUri) return { ok: false, status: answer.status, note: "O pedido de autenticação da ferramenta não tem nonce ou redirect_uri." };
  return { ok: true, state: location.searchParams.get("state"), nonce, redirectUri, cookie: cookieHeader(answer.setCookies) };
}

async function idToken(options: { key: SigningKey; registration: TLti13TestRegistration; nonce: string; aud?: string; deploymentId?: string; iat: number }): Promise<string> {
  const base = env().HUB_BASE_URL;
  const claims = buildLtiClaims({
    messageType: "LtiResourceLinkRequest",
    deploymentId: options.deploymentId ?? options.registration.deploymentId,
    targetLinkUri: options.registration.targetLinkUri,
    role: "professor",
    resourceLink: { id: `teste-de-lancamento-${randomUUID()}`, title: "Teste de lançamento do Hub" },
    platform: { guid: new URL(base).host, name: "Hub Educacional (testador de lançamento)" },
    returnUrl: `${base}/desenvolvedor`,
    custom: { hub_launch_test: "1" },
  });
  const aud = options.aud ?? options.registration.clientId;
  return new SignJWT({ ...claims, nonce: options.nonce, azp: aud })
    .setProtectedHeader({ alg: "RS256", typ: "JWT", kid: options.key.kid })
    .setIssuer(base)
    .setSubject(randomUUID())
    .setAudience(aud)
    .setIssuedAt(options.iat)
    .setExpirationTime(options.iat + 300)
    .sign(await importJWK(options.key.privateJwk, "RS256"));
}

export interface TLti13CaseResult {
  id: TLti13CaseId;
  status: number | null;
  passed: boolean;
  note: string | null;
}

const accepted = (status: number) => status >= 200 && status < 400;

/** Runs the six cases in order; `exchange` does the HTTP (pinned to checked addresses in the app). */
export async function runLti13Cases(options: { registration: TLti13TestRegistration; exchange: TLti13Exchange; nowSeconds: number }): Promise<TLti13CaseResult[]> {
  const { registration, exchange, nowSeconds } = options;
  const hubKey = await getSigningKey();
  const foreignKey = await generateSigningKey();
  const results: TLti13CaseResult[] = [];
  let validPost: { redirectUri: string; fields: Array<[string, string]>; cookie: string } | null = null;
  for (const testCase of LTI13_CASES) {
    if (testCase.id === "replayed_nonce") {
      const valid = results.find((r) => r.id === "valid");
      if (!validPost || !valid?.passed) {
        results.push({ id: testCase.id, status: null, passed: false, note: "Inconclusivo: o lançamento original foi recusado, então a repetição não prova nada." });
        continue;
      }
      const answer = await exchange.launch(validPost.redirectUri, validPost.fields, validPost.cookie);
      results.push(judge(testCase, answer));
      continue;
    }
    const login = await startLogin(exchange, registration);
    if (!login.ok) {
      results.push({ id: testCase.id, status: login.status, passed: false, note: login.note });
      continue;
    }
    const token = await idToken({
      key: testCase.id === "unknown_kid" ? foreignKey : hubKey,
      registration,
      nonce: login.nonce,
      aud: testCase.id === "wrong_aud" ? randomUUID() : undefined,
      deploymentId: testCase.id === "wrong_deployment_id" ? randomUUID() : undefined,
      iat: testCase.id === "expired_id_token" ? nowSeconds - 3600 : nowSeconds,
    });
    const fields: Array<[string, string]> = [["id_token", token], ...(login.state !== null ? ([["state", login.state]] as Array<[string, string]>) : [])];
    const answer = await exchange.launch(login.redirectUri, fields, login.cookie);
    if (testCase.id === "valid") validPost = { redirectUri: login.redirectUri, fields, cookie: login.cookie };
    results.push(judge(testCase, answer));
  }
  return results;
}

function judge(testCase: TLti13Case, answer: TPostResult): TLti13CaseResult {
  if (answer.status === null) return { id: testCase.id, status: null, passed: false, note: answer.error };
  if (testCase.expect === "accept") {
    const ok = accepted(answer.status);
    return { id: testCase.id, status: answer.status, passed: ok, note: ok ? null : "A ferramenta recusou um lançamento válido. Confira o client_id, o deployment_id e o JWKS do Hub na ferramenta." };
  }
  const ok = answer.status === 401 || answer.status === 400 || answer.status === 403;
  return { id: testCase.id, status: answer.status, passed: ok, note: ok ? null : accepted(answer.status) ? "A ferramenta aceitou um lançamento que deveria recusar." : `A ferramenta respondeu ${answer.status}; esperava-se 401 (ou 400/403).` };
}

/** The HTTP side for the app: both URLs resolved and checked first, connections pinned to them. */
export function pinnedExchange(options: { login: TLaunchTarget; resolveRedirect: (url: string) => Promise<TLaunchTarget | null>; timeoutMs: number }): TLti13Exchange {
  return {
    login: (fields) => postLaunch({ target: options.login, fields, timeoutMs: options.timeoutMs }),
    launch: async (redirectUri, fields, cookie) => {
      const target = await options.resolveRedirect(redirectUri);
      if (!target) return { status: null, error: "O redirect_uri pedido pela ferramenta não é um dos cadastrados ou não é público." };
      return postLaunch({ target, fields, timeoutMs: options.timeoutMs, cookie });
    },
  };
}
