import type { TLti13Registration } from "@/lib/server/lti13/lti13-registration";
import { Lti13Form } from "./lti13-form";
import { Lti13RemoveForm } from "./lti13-remove-form";
import type { TFormAction } from "./use-form-action";

const FACTS: Array<[keyof TLti13Registration["platform"], string]> = [
  ["issuer", "Issuer (iss)"],
  ["clientId", "Client ID"],
  ["deploymentId", "Deployment ID"],
  ["authorizationEndpoint", "Authorization endpoint (OIDC auth)"],
  ["tokenEndpoint", "Token endpoint (OAuth 2)"],
  ["jwksUrl", "JWKS do Hub (keyset)"],
];

/** The tool page's LTI 1.3 part: the version in use, the hub's values to paste, the tool's values. */
export function Lti13Section(props: {
  toolId: string;
  registration: TLti13Registration | null;
  saveAction: TFormAction<undefined>;
  removeAction: TFormAction<undefined>;
}) {
  const { registration } = props;
  return (
    <section aria-labelledby="lti13-title" className="space-y-4 rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
      <div>
        <h2 id="lti13-title" className="text-lg font-semibold">LTI 1.3</h2>
        <p className="mt-1 text-sm text-slate-600" data-lti-version={registration ? "1.3" : "1.0"}>
          {registration
            ? "Esta ferramenta é aberta com LTI 1.3 (login OIDC e id_token assinado). A galeria não muda."
            : "Esta ferramenta é aberta com LTI 1.0. Preencha o registro abaixo para passar a usar LTI 1.3; a galeria não muda."}
        </p>
      </div>
      {registration && (
        <dl className="grid gap-2 text-sm" aria-label="Valores do Hub para a ferramenta">
          {FACTS.map(([key, label]) => (
            <div key={key}>
              <dt className="font-medium">{label}</dt>
              <dd className="break-all font-mono text-slate-700" data-platform-fact={key}>{registration.platform[key]}</dd>
            </div>
          ))}
        </dl>
      )}
      <Lti13Form
        action={props.saveAction}
        toolId={props.toolId}
        initial={
          registration && {
            loginUrl: registration.loginUrl,
            targetLinkUri: registration.targetLinkUri,
            redirectUris: registration.redirectUris.join("\n"),
            jwksUrl: registration.jwksUrl ?? "",
            publicJwk: registration.publicJwk ? JSON.stringify(registration.publicJwk) : "",
            deepLinkingUrl: registration.deepLinkingUrl ?? "",
          }
        }
      />
      {registration && <Lti13RemoveForm action={props.removeAction} toolId={props.toolId} />}
    </section>
  );
}
