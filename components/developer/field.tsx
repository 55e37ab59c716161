import type { ReactNode } from "react";

export const inputClass =
  "mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm aria-[invalid=true]:border-red-500 aria-[invalid=true]:ring-1 aria-[invalid=true]:ring-red-500";

interface FieldProps {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  /** Renders the control; receives the aria props that tie it to its hint and error. */
  children: (aria: { id: string; "aria-invalid": boolean; "aria-required"?: boolean; "aria-describedby"?: string }) => ReactNode;
}

/**
 * A labelled form control with its hint and its error message right below it. The error is the
 * control's accessible description, so screen readers (and tests) read it with the field.
 */
export function Field({ id, label, error, hint, required, children }: FieldProps) {
  const describedBy = [error ? `${id}-error` : null, hint ? `${id}-hint` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div>
      {/* The asterisk stays outside the label so the field's accessible name is just the label. */}
      <div className="flex gap-1 text-sm font-medium">
        <label htmlFor={id}>{label}</label>
        {required && <span className="text-red-600" aria-hidden>*</span>}
      </div>
      {children({ id, "aria-invalid": Boolean(error), ...(required ? { "aria-required": true } : {}), ...(describedBy ? { "aria-describedby": describedBy } : {}) })}
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700" data-field-error={id}>
          {error}
        </p>
      )}
      {hint && (
        <p id={`${id}-hint`} className="mt-1 text-xs text-slate-500">
          {hint}
        </p>
      )}
    </div>
  );
}

export function FormMessage({ state }: { state: { status: string; message?: string } }) {
  if (state.status === "error") {
    return (
      <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">
        {state.message}
      </p>
    );
  }
  if (state.status === "success" && state.message) {
    return (
      <p role="status" className="rounded-md bg-emerald-50 px-3 py-2 text-sm text-emerald-800">
        {state.message}
      </p>
    );
  }
  return null;
}

export const primaryButton = "rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700 disabled:opacity-60";
export const secondaryButton = "rounded-md border border-slate-300 bg-white px-4 py-2 text-sm font-medium hover:bg-slate-100 disabled:opacity-60";
export const dangerButton = "rounded-md bg-red-600 px-4 py-2 text-sm font-medium text-white hover:bg-red-700 disabled:opacity-60";
