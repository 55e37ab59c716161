"use client";
import Link from "@/components/link";
import { MAX_REDIRECT_URIS, type TResponseType } from "@/lib/validations/developer";
import { EdtechField } from "./edtech-field";
import { Field, FormMessage, inputClass, primaryButton } from "./field";
import { ShownOnceSecret } from "./shown-once-secret";
import { useFormAction, type TFormAction } from "./use-form-action";

export interface TApplicationFormValues {
  name: string;
  description: string;
  homepageUrl: string;
  redirectUris: string;
  defaultResponseType: TResponseType;
}

export interface TApplicationFormResult {
  applicationId: string;
  clientId: string;
  clientSecret: string | null;
}

const RESPONSE_TYPE_LABEL: Record<TResponseType, string> = {
  code: "code — fluxo de código de autorização (recomendado)",
  access_token: "access_token — fluxo implícito",
  id_token: "id_token — fluxo implícito (OpenID Connect)",
};

const EMPTY: TApplicationFormValues = { name: "", description: "", homepageUrl: "", redirectUris: "", defaultResponseType: "code" };

interface ApplicationFormProps {
  mode: "create" | "edit";
  action: TFormAction<TApplicationFormResult>;
  edtechs?: Array<{ id: string; name: string }>;
  applicationId?: string;
  initial?: TApplicationFormValues;
}

export function ApplicationForm({ mode, action, edtechs = [], applicationId, initial = EMPTY }: ApplicationFormProps) {
  const { state, pending, onSubmit, fieldError } = useFormAction(action);

  if (mode === "create" && state.status === "success") {
    return (
      <div className="space-y-4 rounded-xl border border-emerald-200 bg-white p-6 shadow-sm">
        <h2 className="text-lg font-semibold text-emerald-800">Aplicação criada</h2>
        <dl className="text-sm">
          <dt className="font-medium">client_id</dt>
          <dd className="mt-1 font-mono" data-testid="client-id">{state.result.clientId}</dd>
        </dl>
        {state.result.clientSecret && <ShownOnceSecret label="client_secret" value={state.result.clientSecret} />}
        <Link href={`/desenvolvedor/aplicacoes/${state.result.applicationId}`} className={`inline-block ${primaryButton}`}>
          Ver a aplicação e criar chaves da API
        </Link>
      </div>
    );
  }

  const values = state.status === "error" ? { ...initial, ...state.values } : initial;
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label={mode === "create" ? "Nova aplicação" : "Editar aplicação"}>
      {applicationId && <input type="hidden" name="applicationId" value={applicationId} />}
      {mode === "create" && <EdtechField edtechs={edtechs} error={fieldError("edtechId")} />}
      <Field id="name" label="Nome" required error={fieldError("name")} hint="Mostrado às pessoas na tela de autorização.">
        {(aria) => <input {...aria} name="name" defaultValue={values.name} maxLength={100} className={inputClass} />}
      </Field>
      <Field id="description" label="Descrição" error={fieldError("description")}>
        {(aria) => <textarea {...aria} name="description" rows={2} maxLength={500} defaultValue={values.description} className={inputClass} />}
      </Field>
      <Field id="homepageUrl" label="Página inicial" error={fieldError("homepageUrl")} hint="Opcional. https:// (http:// só para localhost).">
        {(aria) => <input {...aria} name="homepageUrl" type="url" inputMode="url" defaultValue={values.homepageUrl} placeholder="https://" className={inputClass} />}
      </Field>
      <Field
        id="redirectUris"
        label="Endereços de retorno (redirect_uri)"
        required
        error={fieldError("redirectUris")}
        hint={`Um por linha, até ${MAX_REDIRECT_URIS}. URIs absolutas, comparadas exatamente como escritas; sem fragmento (#); https:// (http:// só para localhost).`}
      >
        {(aria) => <textarea {...aria} name="redirectUris" rows={3} defaultValue={values.redirectUris} placeholder="https://app.exemplo.com.br/callback" className={`${inputClass} font-mono`} />}
      </Field>
      <Field id="defaultResponseType" label="Tipo de resposta padrão (response_type)" required error={fieldError("defaultResponseType")}>
        {(aria) => (
          <select {...aria} name="defaultResponseType" defaultValue={values.defaultResponseType} className={inputClass}>
            {(Object.keys(RESPONSE_TYPE_LABEL) as TResponseType[]).map((type) => (
              <option key={type} value={type}>
                {RESPONSE_TYPE_LABEL[type]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <FormMessage state={state} />
      <button type="submit" disabled={pending} className={primaryButton}>
        {pending ? "Salvando…" : mode === "create" ? "Criar aplicação" : "Salvar alterações"}
      </button>
    </form>
  );
}
