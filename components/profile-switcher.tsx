"use client";
import { useEffect, useRef, useSyncExternalStore } from "react";

export interface SwitcherOption {
  id: string;
  label: string;
}

/**
 * Header form that changes the session's profile (POST /perfil/escolher); every page then acts
 * as the new one. Without scripts the "Trocar" button submits it; once they run, choosing in
 * the list submits at once, and a choice made before they arrived is sent as they do.
 */
const noSubscription = () => () => {};

export function ProfileSwitcher({ current, options }: { current: string; options: SwitcherOption[] }) {
  const select = useRef<HTMLSelectElement>(null);
  // false in the server's HTML and while hydrating, true once this component's script runs.
  const enhanced = useSyncExternalStore(noSubscription, () => true, () => false);
  useEffect(() => {
    if (select.current && select.current.value !== current) select.current.form?.requestSubmit();
  }, [current]);
  return (
    <form method="post" action="/perfil/escolher" className="flex items-center gap-2 text-sm">
      <input type="hidden" name="callbackUrl" value="/" />
      {/* A refused choice lands on the full picker, which says why. */}
      <input type="hidden" name="returnTo" value="/perfil?trocar=1" />
      <select
        ref={select}
        name="profileId"
        aria-label="Trocar perfil"
        autoComplete="off"
        className="max-w-64 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
        defaultValue={current}
        onChange={(e) => e.currentTarget.form?.requestSubmit()}
      >
        {options.map((o) => (
          <option key={o.id} value={o.id}>{o.label}</option>
        ))}
      </select>
      {!enhanced && (
        <button type="submit" className="rounded-md border border-slate-300 px-2 py-1.5 text-sm hover:bg-slate-100">Trocar</button>
      )}
    </form>
  );
}
