"use client";
import type { TCreatedSandbox } from "@/lib/server/sandbox/create-sandbox";
import { FormMessage, primaryButton } from "./field";
import { ShownOnceSecret } from "./shown-once-secret";
import { useFormAction, type TFormAction } from "./use-form-action";

export function CreateSandboxForm({ action, edtechId }: { action: TFormAction<TCreatedSandbox>; edtechId: string }) {
  const { state, pending, onSubmit } = useFormAction(action);
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Criar rede sandbox">
      <input type="hidden" name="edtechId" value={edtechId} />
      {state.status !== "success" && (
        <button type="submit" disabled={pending} className={primaryButton}>{pending ? "Criando a rede…" : "Criar rede sandbox"}</button>
      )}
      {state.status === "success" && (
        <>
          <FormMessage state={state} />
          {state.result.keys.map((k) => <ShownOnceSecret key={k.applicationName} label={`Chave da API de dados de ${k.applicationName} (sandbox)`} value={k.key} />)}
          <p className="text-sm">
            Depois de copiar as chaves, <a href="/desenvolvedor/sandbox" className="font-medium text-brand-700 hover:underline">veja a rede, a senha e os usuários sandbox</a>.
          </p>
        </>
      )}
      {state.status === "error" && <FormMessage state={state} />}
    </form>
  );
}

export function GenerateChangesForm({ action, edtechId }: { action: TFormAction<undefined>; edtechId: string }) {
  const { state, pending, onSubmit } = useFormAction(action);
  return (
    <form onSubmit={onSubmit} className="space-y-2" aria-label="Gerar alterações">
      <input type="hidden" name="edtechId" value={edtechId} />
      <button type="submit" disabled={pending} className={primaryButton}>{pending ? "Gerando…" : "Gerar alterações"}</button>
      <FormMessage state={state} />
    </form>
  );
}
