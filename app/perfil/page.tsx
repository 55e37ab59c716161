import type { Metadata } from "next";
import Link from "@/components/link";
import { redirect } from "next/navigation";
import { ProfilePicker } from "@/components/profile-picker";
import { ROLE_LABEL } from "@/lib/labels";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { choosePageAfterSignIn } from "@/lib/server/auth/choose-page-after-sign-in";
import { listProfiles } from "@/lib/server/auth/list-profiles";
import { safeCallbackUrl, withCallbackUrl } from "@/lib/server/http/safe-callback-url";

export const metadata: Metadata = { title: "Escolha o perfil" };

export default async function ProfilePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  const user = await getCurrentUser();
  if (!user) redirect(withCallbackUrl("/login", callbackUrl));
  const profiles = await listProfiles({ personId: user.personId });
  // The sign-ins apply the same rules, so a person sent here is mostly one who needs the picker.
  const next = choosePageAfterSignIn({ callbackUrl, profileCount: profiles.length, profileChosen: user.profile !== null, switching: params.trocar !== undefined });
  if (!next.picker) redirect(next.location);
  return (
    <section className="mx-auto max-w-md">
      <h1 className="text-2xl font-bold">Como você quer entrar?</h1>
      <p className="mt-2 text-sm text-slate-600">Você tem mais de um perfil. Escolha com qual deseja continuar; dá para trocar depois no topo da página.</p>
      {profiles.length === 0 ? (
        <p className="mt-6 rounded-xl border border-amber-200 bg-amber-50 p-5 text-amber-900">
          Sua conta ainda não tem perfil em nenhuma escola. Procure a secretaria da sua escola.
          {" "}Se você desenvolve para uma edtech parceira, acesse a <Link href="/desenvolvedor" className="underline">área do desenvolvedor</Link>.
        </p>
      ) : (
        <div className="mt-6">
          <ProfilePicker
            callbackUrl={callbackUrl}
            returnTo={withCallbackUrl("/perfil", callbackUrl, { trocar: "1" })}
            refused={params.erro === "perfil"}
            options={profiles.map((p) => ({ id: p.id, role: ROLE_LABEL[p.role], institution: p.institution.name }))}
          />
        </div>
      )}
    </section>
  );
}
