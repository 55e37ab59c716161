"use client";
import { useState } from "react";

interface ConfirmSubmitProps {
  label: string;
  question: string;
  confirmLabel: string;
  pending: boolean;
  danger?: boolean;
}

/** A submit button that asks first, inline (no browser dialog), for irreversible actions. */
export function ConfirmSubmit({ label, question, confirmLabel, pending, danger = true }: ConfirmSubmitProps) {
  const [asking, setAsking] = useState(false);
  const tone = danger ? "bg-red-600 hover:bg-red-700 text-white" : "bg-brand-600 hover:bg-brand-700 text-white";
  if (!asking) {
    return (
      <button type="button" onClick={() => setAsking(true)} className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium hover:bg-slate-100">
        {label}
      </button>
    );
  }
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span className="text-sm text-slate-700">{question}</span>
      <button type="submit" disabled={pending} className={`rounded-md px-3 py-1.5 text-sm font-medium disabled:opacity-60 ${tone}`}>
        {pending ? "Aguarde…" : confirmLabel}
      </button>
      <button type="button" onClick={() => setAsking(false)} className="rounded-md px-3 py-1.5 text-sm font-medium text-slate-600 hover:underline">
        Cancelar
      </button>
    </span>
  );
}
