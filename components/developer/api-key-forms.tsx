"use client";
import { ConfirmSubmit } from "./confirm-submit";
import { Field, FormMessage, inputClass, primaryButton } from "./field";
import { ShownOnceSecret } from "./shown-once-secret";
import { useFormAction, type TFormAction } from "./use-form-action";

export function CreateApiKeyForm({ action, applicationId }: { action: TFormAction<{ key: string; prefix: string }>; applicationId: string }) {
  const { state, pending, onSubmit, fieldError } = useFormAction(action);
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Nova chave da API">
      <input type="hidden" name="applicationId" value={applicationId} />
      <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
        <div className="flex-1">
          <Field id="keyName" label="Nome da chave (opcional)" error={fieldError("name")} hint="Para reconhecê-la depois, como “Produção” ou “Servidor de relatórios”.">
            {(aria) => <input {...aria} name="name" maxLength={100} className={inputClass} />}
          </Field>
        </div>
        <button type="submit" disabled={pending} className={`${primaryButton} sm:mb-6`}>
          {pending ? "Criando…" : "Criar chave"}
        </button>
      </div>
      {state.status === "success" && <ShownOnceSecret label="Nova chave da API (x-api-key)" value={state.result.key} />}
      {state.status === "error" && !fieldError("name") && <FormMessage state={state} />}
    </form>
  );
}

export function RevokeApiKeyForm({ action, applicationId, apiKeyId, prefix }: { action: TFormAction<undefined>; applicationId: string; apiKeyId: string; prefix: string }) {
  const { state, pending, onSubmit } = useFormAction(action);
  return (
    <form onSubmit={onSubmit} aria-label={`Revogar a chave ${prefix}`}>
      <input type="hidden" name="applicationId" value={applicationId} />
      <input type="hidden" name="apiKeyId" value={apiKeyId} />
      <ConfirmSubmit label="Revogar" question="A chave para de funcionar na próxima requisição." confirmLabel="Revogar chave" pending={pending} />
      {state.status === "error" && <FormMessage state={state} />}
    </form>
  );
}
