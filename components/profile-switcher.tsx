"use client";
import { useProfileSwitch } from "./use-profile-switch";

export interface SwitcherOption {
  id: string;
  label: string;
}

/** Header select that changes the session's profile; every page then acts as the new one. */
export function ProfileSwitcher({ current, options }: { current: string; options: SwitcherOption[] }) {
  const { switchTo, pending, failed } = useProfileSwitch();
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="sr-only">Perfil</span>
      <select
        aria-label="Trocar perfil"
        className="max-w-64 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
        value={current}
        disabled={pending}
        onChange={(e) => switchTo(e.target.value, "/")}
      >
        {options.map((o) => (
          <option key={o.id} value={o.id}>{o.label}</option>
        ))}
      </select>
      {failed && (
        <span role="alert" className="text-xs text-red-700">
          Não foi possível trocar de perfil.
        </span>
      )}
    </label>
  );
}
