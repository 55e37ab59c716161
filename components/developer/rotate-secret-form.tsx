"use client";
import { ConfirmSubmit } from "./confirm-submit";
import { FormMessage } from "./field";
import { ShownOnceSecret } from "./shown-once-secret";
import { useFormAction, type TFormAction } from "./use-form-action";

export function RotateSecretForm({ action, applicationId }: { action: TFormAction<{ clientSecret: string }>; applicationId: string }) {
  const { state, pending, onSubmit } = useFormAction(action);
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label="Trocar client_secret">
      <input type="hidden" name="applicationId" value={applicationId} />
      {state.status === "success" ? (
        <ShownOnceSecret label="Novo client_secret" value={state.result.clientSecret} />
      ) : (
        <ConfirmSubmit label="Gerar novo client_secret" question="O segredo atual deixa de funcionar imediatamente. Continuar?" confirmLabel="Gerar novo segredo" pending={pending} />
      )}
      {state.status === "error" && <FormMessage state={state} />}
    </form>
  );
}
