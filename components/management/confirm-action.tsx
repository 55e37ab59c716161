"use client";
import { useActionState, useState } from "react";
import type { TFormState } from "@/lib/validations/form";
import type { TFormAction } from "./action-form";
import { dangerButton, secondaryButton } from "./styles";

const INITIAL: TFormState = { status: "idle" };

/**
 * A one-button action (remove, unlink, link...) with hidden fields. Destructive ones ask first,
 * inline, with what will happen; failures are shown beside the button.
 */
export function ConfirmAction(props: {
  action: TFormAction;
  hidden?: Record<string, string>;
  label: string;
  /** Accessible name when the visible label is short ("Remover" next to a row). */
  ariaLabel?: string;
  question?: string;
  danger?: boolean;
}) {
  const [state, formAction, pending] = useActionState(props.action, INITIAL);
  const [asking, setAsking] = useState(false);
  const buttonClass = props.danger ? dangerButton : secondaryButton;
  return (
    <form action={formAction} className="inline-flex flex-wrap items-center gap-2">
      {Object.entries(props.hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {props.question && !asking ? (
        <button type="button" className={buttonClass} aria-label={props.ariaLabel} onClick={() => setAsking(true)}>
          {props.label}
        </button>
      ) : (
        <>
          {props.question && <span className="text-sm text-slate-700">{props.question}</span>}
          <button type="submit" disabled={pending} className={buttonClass} aria-label={props.question ? undefined : props.ariaLabel}>
            {pending ? "Aguarde…" : props.question ? `Confirmar: ${props.label.toLowerCase()}` : props.label}
          </button>
          {props.question && (
            <button type="button" className="text-sm text-slate-600 hover:underline" onClick={() => setAsking(false)}>
              Cancelar
            </button>
          )}
        </>
      )}
      {state.status === "error" && <span role="alert" className="text-sm text-red-700">{state.message}</span>}
    </form>
  );
}
