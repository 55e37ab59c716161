"use client";
import { useSession } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useTransition } from "react";

export interface SwitcherOption {
  id: string;
  label: string;
}

/** Header select that changes the session's profile; every page then acts as the new one. */
export function ProfileSwitcher({ current, options }: { current: string; options: SwitcherOption[] }) {
  const { update } = useSession();
  const router = useRouter();
  const [pending, start] = useTransition();
  return (
    <label className="flex items-center gap-2 text-sm">
      <span className="sr-only">Perfil</span>
      <select
        aria-label="Trocar perfil"
        className="max-w-64 rounded-md border border-slate-300 bg-white px-2 py-1.5 text-sm"
        value={current}
        disabled={pending}
        onChange={(e) => {
          const profileId = e.target.value;
          start(async () => {
            await update({ profileId });
            router.push("/");
            router.refresh();
          });
        }}
      >
        {options.map((o) => (
          <option key={o.id} value={o.id}>{o.label}</option>
        ))}
      </select>
    </label>
  );
}
