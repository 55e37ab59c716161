"use client";
import { Field, FormMessage, inputClass, primaryButton } from "./field";
import { useFormAction, type TFormAction } from "./use-form-action";

export interface TLti13FormInitial {
  loginUrl: string;
  targetLinkUri: string;
  redirectUris: string;
  jwksUrl: string;
  publicJwk: string;
  deepLinkingUrl: string;
}

/** A tool's LTI 1.3 registration: the tool's side (the hub's side is shown beside it). */
export function Lti13Form({ action, toolId, initial }: { action: TFormAction<undefined>; toolId: string; initial: TLti13FormInitial | null }) {
  const { state, pending, onSubmit, fieldError } = useFormAction(action);
  const value = (name: keyof TLti13FormInitial) => (state.status === "error" ? state.values[name] : undefined) ?? initial?.[name] ?? "";
  return (
    <form onSubmit={onSubmit} className="space-y-4" aria-label="Registro LTI 1.3">
      <input type="hidden" name="toolId" value={toolId} />
      <Field id="loginUrl" label="Endereço de início de login (OIDC login initiation)" required error={fieldError("loginUrl")} hint="Recebe iss, login_hint, target_link_uri, lti_message_hint, client_id e lti_deployment_id.">
        {(aria) => <input {...aria} name="loginUrl" defaultValue={value("loginUrl")} className={inputClass} />}
      </Field>
      <Field id="targetLinkUri" label="Target link URI" required error={fieldError("targetLinkUri")} hint="O endereço que a ferramenta abre depois do login.">
        {(aria) => <input {...aria} name="targetLinkUri" defaultValue={value("targetLinkUri")} className={inputClass} />}
      </Field>
      <Field id="redirectUris" label="Redirect URIs" required error={fieldError("redirectUris")} hint="Um por linha; o id_token só é enviado a um destes endereços (comparação exata).">
        {(aria) => <textarea {...aria} name="redirectUris" rows={3} defaultValue={value("redirectUris")} className={inputClass} />}
      </Field>
      <Field id="jwksUrl" label="Endereço JWKS da ferramenta" error={fieldError("jwksUrl")} hint="Usado para verificar as respostas de deep linking e as asserções do serviço de membros.">
        {(aria) => <input {...aria} name="jwksUrl" defaultValue={value("jwksUrl")} className={inputClass} />}
      </Field>
      <Field id="publicJwk" label="…ou a chave pública (JWK)" error={fieldError("publicJwk")} hint="Um JWK RSA público em JSON, se a ferramenta não publica um JWKS.">
        {(aria) => <textarea {...aria} name="publicJwk" rows={3} defaultValue={value("publicJwk")} className={`${inputClass} font-mono`} />}
      </Field>
      <Field id="deepLinkingUrl" label="Endereço de deep linking (opcional)" error={fieldError("deepLinkingUrl")} hint="Onde o professor escolhe conteúdo (LtiDeepLinkingRequest).">
        {(aria) => <input {...aria} name="deepLinkingUrl" defaultValue={value("deepLinkingUrl")} className={inputClass} />}
      </Field>
      <button type="submit" disabled={pending} className={primaryButton}>
        {pending ? "Salvando…" : initial ? "Salvar registro LTI 1.3" : "Passar a lançar com LTI 1.3"}
      </button>
      <FormMessage state={state} />
    </form>
  );
}
