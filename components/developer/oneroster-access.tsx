import type { TOneRosterEnablement } from "@/lib/server/oneroster/list-oneroster-enablements";

/**
 * What a developer needs to connect an application to OneRoster 1.2 (docs/oneroster.md): the
 * addresses, the scopes, how the client authenticates, and where a manager has turned it on.
 * Long values wrap (break-all) so the card reads on a 390 px phone without sideways scrolling.
 */
export function OneRosterAccess(props: { baseUrl: string; clientId: string; scopes: readonly string[]; institutions: readonly TOneRosterEnablement[] }) {
  return (
    <section aria-labelledby="oneroster-title" className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id="oneroster-title" className="text-lg font-semibold">OneRoster 1.2</h2>
      <p className="mt-1 text-sm text-slate-600">
        A API de roster padrão da 1EdTech (Rostering, somente leitura): instituições, turmas, pessoas e matrículas das instituições que habilitaram esta
        aplicação, com as mesmas regras de privacidade da API de dados. A autorização é OAuth 2 <i>client credentials</i> com as credenciais desta aplicação.
      </p>
      <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-[10rem_1fr]">
        <dt className="font-medium">URL base</dt>
        <dd className="break-all font-mono" data-testid="oneroster-base-url">{props.baseUrl}/ims/oneroster/rostering/v1p2</dd>
        <dt className="font-medium">URL do token</dt>
        <dd className="break-all font-mono" data-testid="oneroster-token-url">{props.baseUrl}/ims/oneroster/token</dd>
        <dt className="font-medium">Autenticação</dt>
        <dd>
          <code>client_secret_basic</code> (HTTP Basic) ou <code>client_secret_post</code>, com o client_id{" "}
          <span className="break-all font-mono">{props.clientId}</span> e o client_secret desta aplicação (os mesmos do login OAuth 2), e{" "}
          <code>grant_type=client_credentials</code>.
        </dd>
        <dt className="font-medium">Escopos</dt>
        <dd>
          <ul className="space-y-1">
            {props.scopes.map((scope) => (
              <li key={scope} className="break-all font-mono text-xs">{scope}</li>
            ))}
          </ul>
          <span className="mt-1 block text-slate-600">Sem o parâmetro <code>scope</code>, o token traz os três.</span>
        </dd>
        <dt className="font-medium">Token</dt>
        <dd>Bearer, válido por 1 hora. Peça outro quando expirar.</dd>
      </dl>
      <h3 className="mt-4 text-base font-semibold">Instituições que habilitaram</h3>
      {props.institutions.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600" data-testid="oneroster-none">
          Nenhuma instituição habilitou o OneRoster para esta aplicação ainda. O gestor habilita na regra de compartilhamento da aplicação, em “Aplicativos
          e dados”; até lá, o endpoint de token responde <code>unauthorized_client</code>.
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-slate-600">Cada uma vale também para as unidades abaixo dela que não têm regra própria.</p>
          <ul className="mt-2 space-y-1 text-sm" data-testid="oneroster-institutions">
            {props.institutions.map((inst) => (
              <li key={inst.institutionId}>
                <span className="font-medium">{inst.name}</span>{" "}
                <span className="text-slate-500">({inst.kind === "network" ? "rede" : "escola"})</span>
                <span className="block break-all font-mono text-xs text-slate-500">{inst.institutionId}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
