"use client";
import { ConfirmSubmit } from "./confirm-submit";
import { FormMessage } from "./field";
import { useFormAction, type TFormAction } from "./use-form-action";

/** Back to LTI 1.0 (the consumer key and secret were kept). */
export function Lti13RemoveForm({ action, toolId }: { action: TFormAction<undefined>; toolId: string }) {
  const { state, pending, onSubmit } = useFormAction(action);
  return (
    <form onSubmit={onSubmit} aria-label="Voltar ao LTI 1.0">
      <input type="hidden" name="toolId" value={toolId} />
      <ConfirmSubmit label="Voltar a lançar com LTI 1.0" question="O client_id deixará de valer. Continuar?" confirmLabel="Voltar ao LTI 1.0" pending={pending} />
      <FormMessage state={state} />
    </form>
  );
}
