import Link from "@/components/link";
import { ROLE_LABEL } from "@/lib/labels";
import type { CurrentUser } from "@/lib/server/auth/current-user";
import type { ProfileSummary } from "@/lib/server/auth/list-profiles";
import { ProfileSwitcher } from "./profile-switcher";
import { SignOutButton } from "./sign-out-button";

export function SiteHeader({ user, profiles }: { user: CurrentUser | null; profiles: ProfileSummary[] }) {
  const role = user?.profile?.role;
  return (
    <header className="border-b border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-x-4 gap-y-2 px-4 py-3">
        <Link href="/" className="flex items-center gap-2 font-semibold text-brand-900">
          <span aria-hidden className="grid size-8 place-items-center rounded-lg bg-brand-600 text-white">H</span>
          Hub Educacional
        </Link>
        <nav className="flex flex-wrap items-center gap-3" aria-label="Conta">
          {role === "gestor" && <Link href="/gestao" className="text-sm text-slate-700 hover:underline">Gestão</Link>}
          {user ? (
            <>
              <span className="hidden text-sm text-slate-600 sm:inline">{user.name}</span>
              <Link href="/meus-dados" className="text-sm text-slate-700 hover:underline">Meus dados</Link>
              {user.profile && profiles.length > 1 && (
                <ProfileSwitcher
                  current={user.profile.id}
                  options={profiles.map((p) => ({ id: p.id, label: `${ROLE_LABEL[p.role]} · ${p.institution.name}` }))}
                />
              )}
              <SignOutButton />
            </>
          ) : (
            <Link href="/login" className="rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700">
              Entrar
            </Link>
          )}
        </nav>
      </div>
    </header>
  );
}
