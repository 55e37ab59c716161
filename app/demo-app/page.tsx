import type { Metadata } from "next";
import { cookies } from "next/headers";
import { notFound, redirect } from "next/navigation";
import { DemoFragmentResult } from "@/components/demo-fragment-result";
import { env } from "@/lib/env";
import { DEMO_APP, DEMO_SESSION_COOKIE, readDemoSession } from "@/lib/server/demo/demo-app-client";
import { CodeBlock } from "@/components/code-block";

export const metadata: Metadata = { title: "Aplicativo de demonstração", robots: { index: false } };

type SearchParams = Record<string, string | string[] | undefined>;
const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

const ERRORS: Record<string, string> = {
  hub_refused: "O Hub recusou o pedido de entrada.",
  expired: "A tentativa de entrada demorou demais. Tente de novo.",
  token_exchange_failed: "A troca do código por tokens falhou.",
  id_token_invalid: "O id token não passou na verificação (assinatura, emissor, audiência, nonce ou at_hash).",
  user_info_failed: "A consulta das informações do usuário falhou.",
  bad_callback: "O retorno do Hub veio incompleto.",
  hub_unreachable: "Não foi possível falar com o Hub.",
  iss_unknown: "Um pedido de entrada chegou de um emissor que este aplicativo não conhece; ele foi ignorado.",
};

const button = "inline-block rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700";
const pre = "mt-2 overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100";

/**
 * The demo partner application: the living example of "Entrar com o Hub" (docs/oauth.md).
 * Links to its routes are plain <a>: they are route handlers that redirect, not pages.
 */
export default async function DemoAppPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  if (env().DEMO_TOOL !== "1") notFound();
  const issuer = env().HUB_BASE_URL;
  const params = await searchParams;
  const iss = one(params.iss);
  const loginHint = one(params.login_hint);
  // Third-party initiated login (OIDC Core §4): the hub's home page card sends people here.
  if (iss === issuer) redirect(`/demo-app/entrar${loginHint ? `?login_hint=${encodeURIComponent(loginHint)}` : ""}`);
  const errorKey = iss !== undefined ? "iss_unknown" : one(params.erro);
  const detail = one(params.detalhe)?.match(/^[a-z0-9_]{1,64}$/)?.[0];
  const code = one(params.codigo)?.match(/^[A-Za-z0-9_-]{16,128}$/)?.[0];
  const session = readDemoSession((await cookies()).get(DEMO_SESSION_COOKIE)?.value);
  const info = session?.userInfo as { perfil?: string; instituicao?: { nome?: string } } | undefined;

  return (
    <section className="mx-auto max-w-3xl">
      <p className="text-sm font-semibold text-brand-600">Aplicativo parceiro de demonstração · client_id {DEMO_APP.clientId}</p>
      <h1 className="mt-1 text-3xl font-bold">Aplicativo de Demonstração</h1>
      <p className="mt-2 text-slate-600">
        Um aplicativo de exemplo que entra com o Hub como qualquer parceiro faria: fluxo de código de autorização com PKCE, troca do
        código no servidor, verificação do id token com o JWKS e consulta das informações do usuário.
      </p>

      {errorKey && (
        <p role="alert" className="mt-6 rounded-md bg-red-50 px-4 py-3 text-sm text-red-700">
          {(Object.hasOwn(ERRORS, errorKey) && ERRORS[errorKey]) || "Algo deu errado."} {detail && <span className="font-mono">({detail})</span>}
        </p>
      )}

      {code && (
        <div className="mt-6 rounded-xl border border-amber-200 bg-amber-50 p-5 text-sm text-amber-900">
          <p>
            Chegou um código que este aplicativo não pediu (o <code>state</code> não confere), então ele <strong>não</strong> foi
            trocado: é o que todo cliente deve fazer. Para experimentar a troca à mão, use-o em até 60 segundos:
          </p>
          <CodeBlock label="Troca do código com curl" className={pre}>
            {`curl -s -X POST ${issuer}/lti/v1/oauth2/authorize \\\n  -H 'content-type: application/json' -H 'accept: application/json' \\\n  -d '{"grant_type":"authorization_code","client_id":"${DEMO_APP.clientId}","client_secret":"${DEMO_APP.clientSecret}","code":"${code}"}'`}
          </CodeBlock>
        </div>
      )}

      {session ? (
        <div className="mt-8 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
          <h2 className="text-xl font-semibold">Você entrou com o Hub</h2>
          <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm">
            <dt className="text-slate-500">Perfil (user_id)</dt>
            <dd className="break-all font-mono" data-testid="demo-user-id">{session.userId}</dd>
            <dt className="text-slate-500">Papel</dt>
            <dd data-testid="demo-role">{info?.perfil ?? "—"}</dd>
            <dt className="text-slate-500">Instituição</dt>
            <dd data-testid="demo-institution">{info?.instituicao?.nome ?? "—"}</dd>
          </dl>
          <h3 className="mt-6 font-semibold">Resposta de GET /users/v1/users/info</h3>
          <CodeBlock label="Resposta de informações do usuário (JSON)" className={pre} testId="demo-user-info">{JSON.stringify(session.userInfo, null, 2)}</CodeBlock>
          <h3 className="mt-6 font-semibold">Id token (verificado com /.well-known/jwks.json)</h3>
          <CodeBlock label="Declarações do id token (JSON)" className={pre}>{JSON.stringify(session.idTokenClaims, null, 2)}</CodeBlock>
          <div className="mt-6 flex flex-wrap items-center gap-3">
            <a href="/demo-app/entrar" className={button}>Entrar com outro perfil</a>
            <form action="/demo-app/sair" method="post">
              <button type="submit" className="rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-100">Sair do aplicativo</button>
            </form>
          </div>
        </div>
      ) : (
        <div className="mt-8">
          <a href="/demo-app/entrar" className={button}>Entrar com o Hub</a>
        </div>
      )}

      <DemoFragmentResult issuer={issuer} />
    </section>
  );
}
