"use client";
import { ConfirmSubmit } from "./confirm-submit";
import { Field, FormMessage, inputClass, primaryButton } from "./field";
import { ShownOnceSecret } from "./shown-once-secret";
import { useFormAction, type TFormAction } from "./use-form-action";

const ENTITY_LABELS: Record<string, string> = {
  usuario: "usuario", turma: "turma", disciplina: "disciplina", periodo: "periodo",
  turmaAluno: "turmaAluno", disciplinaProfessor: "disciplinaProfessor", responsavelAluno: "responsavelAluno",
};
const KIND_LABELS: Record<string, string> = { insert: "insert", update: "update", delete: "delete" };

function Choices({ name, legend, labels, hint }: { name: string; legend: string; labels: Record<string, string>; hint: string }) {
  return (
    <fieldset>
      <legend className="text-sm font-medium">{legend}</legend>
      <div className="mt-1 flex flex-wrap gap-x-4 gap-y-1">
        {Object.entries(labels).map(([value, label]) => (
          <label key={value} className="inline-flex items-center gap-1 text-sm font-mono">
            <input type="checkbox" name={name} value={value} /> {label}
          </label>
        ))}
      </div>
      <p className="mt-1 text-xs text-slate-500">{hint}</p>
    </fieldset>
  );
}

export function CreateWebhookForm({ action, applicationId }: { action: TFormAction<{ secret: string }>; applicationId: string }) {
  const { state, pending, onSubmit, fieldError } = useFormAction(action);
  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4" aria-label="Novo endpoint de webhook">
      <input type="hidden" name="applicationId" value={applicationId} />
      <Field id="webhookUrl" label="Endereço (URL)" required error={fieldError("url")} hint="https://… (http:// só para localhost). O Hub envia um POST assinado a cada lote de eventos.">
        {(aria) => <input {...aria} name="url" type="url" maxLength={2000} className={inputClass} placeholder="https://api.suaempresa.com.br/hub/webhooks" />}
      </Field>
      <Field id="webhookDescription" label="Descrição (opcional)" error={fieldError("description")}>
        {(aria) => <input {...aria} name="description" maxLength={200} className={inputClass} />}
      </Field>
      <Choices name="entities" legend="Entidades" labels={ENTITY_LABELS} hint="Nenhuma marcada: todas (como o parâmetro only da API de dados)." />
      <Choices name="kinds" legend="Eventos" labels={KIND_LABELS} hint="Nenhum marcado: todos (como o parâmetro event)." />
      <button type="submit" disabled={pending} className={primaryButton}>{pending ? "Criando…" : "Criar endpoint"}</button>
      {state.status === "success" && <ShownOnceSecret label="Segredo de assinatura do webhook" value={state.result.secret} />}
      {state.status === "error" && !fieldError("url") && <FormMessage state={state} />}
    </form>
  );
}

/** One button that posts hidden ids (send a test event, send again, reactivate, delete) and shows the answer beside it. */
export function WebhookButtonForm({
  action, fields, label, pendingLabel, confirm,
}: {
  action: TFormAction<undefined>;
  fields: Record<string, string>;
  label: string;
  pendingLabel: string;
  /** Asks before submitting (irreversible actions). */
  confirm?: { question: string; confirmLabel: string };
}) {
  const { state, pending, onSubmit } = useFormAction(action);
  return (
    <form onSubmit={onSubmit} className="inline-flex flex-col gap-1" aria-label={label}>
      {Object.entries(fields).map(([name, value]) => <input key={name} type="hidden" name={name} value={value} />)}
      {confirm ? (
        <ConfirmSubmit label={label} question={confirm.question} confirmLabel={confirm.confirmLabel} pending={pending} />
      ) : (
        <button type="submit" disabled={pending} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100 disabled:opacity-60">
          {pending ? pendingLabel : label}
        </button>
      )}
      <FormMessage state={state} />
    </form>
  );
}
