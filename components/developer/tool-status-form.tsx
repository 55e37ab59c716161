"use client";
import { ConfirmSubmit } from "./confirm-submit";
import { FormMessage, primaryButton } from "./field";
import { useFormAction, type TFormAction } from "./use-form-action";

export function ToolStatusForm({ action, toolId, status }: { action: TFormAction<undefined>; toolId: string; status: "active" | "withdrawn" }) {
  const { state, pending, onSubmit } = useFormAction(action);
  return (
    <form onSubmit={onSubmit} className="space-y-3" aria-label={status === "active" ? "Retirar ferramenta" : "Reativar ferramenta"}>
      <input type="hidden" name="toolId" value={toolId} />
      <input type="hidden" name="status" value={status === "active" ? "withdrawn" : "active"} />
      {status === "active" ? (
        <ConfirmSubmit label="Retirar da galeria" question="Ninguém poderá abrir a ferramenta até ela ser reativada. Continuar?" confirmLabel="Retirar" pending={pending} />
      ) : (
        <button type="submit" disabled={pending} className={primaryButton}>
          {pending ? "Reativando…" : "Reativar na galeria"}
        </button>
      )}
      {state.status === "error" && <FormMessage state={state} />}
    </form>
  );
}
