"use client";
import { useActionState, useId, useState, type FormEvent } from "react";
import type { TFormState } from "@/lib/validations/form";
import { inputClass, primaryButton } from "./styles";

export type TFormAction = (state: TFormState, form: FormData) => Promise<TFormState>;

interface TShowWhen {
  field: string;
  in: string[];
}

const conditionsOf = (spec: TFieldSpec): TShowWhen[] => (spec.showWhen === undefined ? [] : Array.isArray(spec.showWhen) ? spec.showWhen : [spec.showWhen]);

export interface TFieldSpec {
  name: string;
  label: string;
  type?: "text" | "email" | "date" | "password" | "tel" | "textarea" | "select" | "radio" | "checkboxes";
  options?: { value: string; label: string }[];
  defaultValue?: string | string[];
  required?: boolean;
  hint?: string;
  placeholder?: string;
  autoComplete?: string;
  maxLength?: number;
  /** Shown only while another field (a select or radio) has one of these values (each of several). */
  showWhen?: TShowWhen | TShowWhen[];
  /** Grid columns the field takes in a multi-column form (1 or 2). */
  span?: 1 | 2;
}

const INITIAL: TFormState = { status: "idle" };

/**
 * A form bound to a server action: fields from a spec, each validation message next to its field
 * (aria-invalid + aria-describedby), a summary message in a live region, and the submitted values
 * kept after an error.
 */
export function ActionForm(props: {
  action: TFormAction;
  fields: TFieldSpec[];
  submitLabel: string;
  pendingLabel?: string;
  ariaLabel: string;
  hidden?: Record<string, string>;
  columns?: 1 | 2;
  /** Clear the fields after a success (create forms). */
  resetOnSuccess?: boolean;
}) {
  const [state, formAction, pending] = useActionState(props.action, INITIAL);
  const id = useId();
  const controlling = new Set(props.fields.flatMap((f) => conditionsOf(f).map((c) => c.field)));
  const initialOf = (name: string) => {
    const spec = props.fields.find((f) => f.name === name);
    const value = state.status === "error" ? state.values[name] : undefined;
    return value ?? (typeof spec?.defaultValue === "string" ? spec.defaultValue : "");
  };
  const [watched, setWatched] = useState<Record<string, string>>(() => Object.fromEntries([...controlling].map((n) => [n, initialOf(n)])));
  const onChange = (e: FormEvent<HTMLFormElement>) => {
    const target = e.target as HTMLInputElement;
    if (controlling.has(target.name)) setWatched((w) => ({ ...w, [target.name]: target.value }));
  };
  const fieldError = (name: string) => (state.status === "error" ? state.fieldErrors[name] : undefined);
  const valueOf = (spec: TFieldSpec): string | string[] | undefined => {
    if (state.status === "error") {
      if (spec.type === "checkboxes") return spec.defaultValue;
      return state.values[spec.name] ?? "";
    }
    if (state.status === "success" && props.resetOnSuccess) return spec.type === "select" || spec.type === "radio" ? spec.defaultValue : "";
    return spec.defaultValue;
  };
  // A new key after each answer remounts the fields with the values above (React resets forms
  // after an action; this makes the reset land on the right values).
  const key = state.status === "idle" ? "idle" : String(state.at);
  const unplaced = state.status === "error" ? Object.keys(state.fieldErrors).filter((f) => !props.fields.some((s) => s.name === f)) : [];

  return (
    <form action={formAction} onChange={onChange} aria-label={props.ariaLabel} noValidate className="space-y-4">
      {Object.entries(props.hidden ?? {}).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <div key={key} className={props.columns === 2 ? "grid gap-4 sm:grid-cols-2" : "space-y-4"}>
        {props.fields.map((spec) => {
          if (!conditionsOf(spec).every((c) => c.in.includes(watched[c.field] ?? ""))) return null;
          const fid = `${id}-${spec.name}`;
          const error = fieldError(spec.name);
          const describedBy = [error ? `${fid}-error` : "", spec.hint ? `${fid}-hint` : ""].filter(Boolean).join(" ") || undefined;
          const aria = { "aria-invalid": error ? true : undefined, "aria-describedby": describedBy };
          const value = valueOf(spec);
          const group = spec.type === "radio" || spec.type === "checkboxes";
          return (
            <div key={spec.name} className={spec.span === 2 ? "sm:col-span-2" : undefined}>
              {group ? (
                <fieldset {...aria}>
                  <legend className="mb-1 block text-sm font-medium text-slate-800">
                    {spec.label}
                    {spec.required && <span className="text-red-600"> *</span>}
                  </legend>
                  <div className="flex flex-wrap gap-x-4 gap-y-1">
                    {spec.options?.map((o) => (
                      <label key={o.value} className="inline-flex items-center gap-2 text-sm">
                        <input
                          type={spec.type === "radio" ? "radio" : "checkbox"}
                          name={spec.name}
                          value={o.value}
                          defaultChecked={Array.isArray(value) ? value.includes(o.value) : value === o.value}
                        />
                        {o.label}
                      </label>
                    ))}
                  </div>
                </fieldset>
              ) : (
                <>
                  <label htmlFor={fid} className="mb-1 block text-sm font-medium text-slate-800">
                    {spec.label}
                    {spec.required && <span className="text-red-600"> *</span>}
                  </label>
                  {spec.type === "select" ? (
                    <select id={fid} name={spec.name} defaultValue={typeof value === "string" ? value : ""} className={inputClass} {...aria}>
                      {spec.options?.map((o) => (
                        <option key={o.value} value={o.value}>{o.label}</option>
                      ))}
                    </select>
                  ) : spec.type === "textarea" ? (
                    <textarea id={fid} name={spec.name} defaultValue={typeof value === "string" ? value : ""} rows={4} placeholder={spec.placeholder} maxLength={spec.maxLength} className={inputClass} {...aria} />
                  ) : (
                    <input
                      id={fid}
                      name={spec.name}
                      type={spec.type ?? "text"}
                      defaultValue={typeof value === "string" ? value : ""}
                      placeholder={spec.placeholder}
                      autoComplete={spec.autoComplete ?? "off"}
                      maxLength={spec.maxLength}
                      className={inputClass}
                      {...aria}
                    />
                  )}
                </>
              )}
              {spec.hint && <p id={`${fid}-hint`} className="mt-1 text-xs text-slate-500">{spec.hint}</p>}
              {error && <p id={`${fid}-error`} className="mt-1 text-sm text-red-700">{error}</p>}
            </div>
          );
        })}
      </div>
      <div className="flex flex-wrap items-center gap-3">
        <button type="submit" disabled={pending} className={primaryButton}>
          {pending ? (props.pendingLabel ?? "Salvando…") : props.submitLabel}
        </button>
        <FormStatus state={state} extra={unplaced.map((f) => (state.status === "error" ? state.fieldErrors[f]! : ""))} />
      </div>
    </form>
  );
}

export function FormStatus({ state, extra = [] }: { state: TFormState; extra?: string[] }) {
  if (state.status === "success") return <p role="status" className="text-sm font-medium text-emerald-700">{state.message}</p>;
  if (state.status === "error") {
    return (
      <div role="alert" className="text-sm text-red-700">
        <p>{state.message}</p>
        {extra.filter(Boolean).map((m) => (
          <p key={m}>{m}</p>
        ))}
      </div>
    );
  }
  return <p role="status" className="sr-only" />;
}
