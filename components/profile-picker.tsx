"use client";
import { useState } from "react";
import { useProfileSwitch } from "./use-profile-switch";

export interface PickerOption {
  id: string;
  role: string;
  institution: string;
  /** Why this profile cannot be used here (e.g. the application is not enabled for its school). */
  unavailableReason?: string;
}

/** Shared by sign-in and the OAuth authorization screen: one profile picker in the product. */
export function ProfilePicker({ options, callbackUrl }: { options: PickerOption[]; callbackUrl: string }) {
  const { switchTo, pending, failed } = useProfileSwitch();
  const [chosen, setChosen] = useState<string>();
  return (
    <>
      {failed && (
        <p role="alert" className="mb-3 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          Não foi possível entrar com este perfil. Recarregue a página e tente de novo.
        </p>
      )}
      <ul className="space-y-3">
        {options.map((o) => (
          <li key={o.id}>
            <button
              type="button"
              disabled={pending || Boolean(o.unavailableReason)}
              aria-describedby={o.unavailableReason ? `why-${o.id}` : undefined}
              onClick={() => {
                setChosen(o.id);
                switchTo(o.id, callbackUrl);
              }}
              className="flex w-full items-center justify-between rounded-xl border border-slate-200 bg-white px-5 py-4 text-left shadow-sm hover:border-brand-600 disabled:cursor-not-allowed disabled:opacity-60"
            >
              <span>
                <span className="block font-semibold">{o.role}</span>
                <span className="block text-sm text-slate-600">{o.institution}</span>
                {o.unavailableReason && <span id={`why-${o.id}`} className="mt-1 block text-sm text-amber-700">{o.unavailableReason}</span>}
              </span>
              <span aria-hidden className="text-brand-600">{pending && chosen === o.id ? "…" : "→"}</span>
            </button>
          </li>
        ))}
      </ul>
    </>
  );
}
