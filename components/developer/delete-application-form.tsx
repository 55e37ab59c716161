"use client";
import { dangerButton, Field, FormMessage, inputClass } from "./field";
import { useFormAction, type TFormAction } from "./use-form-action";

export function DeleteApplicationForm({ action, applicationId, name }: { action: TFormAction<undefined>; applicationId: string; name: string }) {
  const { state, pending, onSubmit, fieldError } = useFormAction(action);
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-3" aria-label="Excluir aplicação">
      <input type="hidden" name="applicationId" value={applicationId} />
      <p className="text-sm text-slate-700">
        Excluir remove a aplicação, todas as suas chaves da API e as permissões que as escolas deram a ela. Não há como desfazer.
      </p>
      <Field id="confirmName" label={`Digite "${name}" para confirmar`} error={fieldError("confirmName")}>
        {(aria) => <input {...aria} name="confirmName" autoComplete="off" className={inputClass} />}
      </Field>
      {state.status === "error" && !fieldError("confirmName") && <FormMessage state={state} />}
      <button type="submit" disabled={pending} className={dangerButton}>
        {pending ? "Excluindo…" : "Excluir aplicação"}
      </button>
    </form>
  );
}
