import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { ProfilePicker } from "@/components/profile-picker";
import { ROLE_LABEL } from "@/lib/labels";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { prepareProfileChoice } from "@/lib/server/oauth/prepare-profile-choice";

export const metadata: Metadata = { title: "Entrar em um aplicativo", robots: { index: false } };

type SearchParams = Record<string, string | string[] | undefined>;

/** Back to a query with repeats kept, so the service can refuse them as the authorize route does. */
function toQuery(params: SearchParams): URLSearchParams {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    for (const v of Array.isArray(value) ? value : value === undefined ? [] : [value]) query.append(name, v);
  }
  return query;
}

/** The profile picker of the authorization screen (decide-authorization.ts sends people here). */
export default async function ChooseProfileForApplication({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const user = await getCurrentUser();
  const query = toQuery(await searchParams);
  const refused = query.get("erro") === "perfil";
  query.delete("erro");
  const screen = await prepareProfileChoice({ query, personId: user?.personId ?? null });
  if (screen.kind === "redirect") redirect(screen.location);
  if (screen.kind === "sign_in") redirect(screen.loginUrl);
  if (screen.kind === "error_page") {
    return (
      <section className="mx-auto max-w-lg py-16 text-center">
        <p className="text-sm font-semibold text-red-600">Não foi possível continuar</p>
        <h1 className="mt-2 text-3xl font-bold">Pedido de acesso inválido</h1>
        <p className="mt-4 text-slate-600">O link de entrada do aplicativo não é válido. Volte ao aplicativo e tente entrar de novo.</p>
        <p className="mt-2 font-mono text-xs text-slate-500">{screen.error.code}: {screen.error.description}</p>
      </section>
    );
  }
  const { application, choices } = screen;
  const anyEnabled = choices.some((c) => c.enabled);
  return (
    <section className="mx-auto max-w-md">
      <p className="text-sm font-semibold text-brand-600">Entrar com o Hub</p>
      <h1 className="mt-1 text-2xl font-bold">Com qual perfil você quer entrar em {application.name}?</h1>
      <p className="mt-2 text-sm text-slate-600">
        {application.name}, de {application.edtechName}, vai receber a identificação do perfil escolhido, o papel e a escola, e só os
        dados pessoais que a escola decidiu compartilhar com este aplicativo.
      </p>
      {!anyEnabled && (
        <p role="status" className="mt-6 rounded-xl border border-amber-200 bg-amber-50 p-5 text-amber-900">
          {choices.length === 0
            ? "Sua conta ainda não tem perfil em nenhuma escola. Procure a secretaria da sua escola."
            : "Nenhuma das suas escolas liberou este aplicativo. Fale com a gestão da escola se precisar dele."}
        </p>
      )}
      <div className="mt-6">
        <ProfilePicker
          callbackUrl={screen.continueUrl}
          returnTo={`/oauth/escolher-perfil?${query}`}
          refused={refused}
          options={choices.map((c) => ({
            id: c.id,
            role: ROLE_LABEL[c.role],
            institution: c.institution.name,
            unavailableReason: c.enabled ? undefined : `${c.institution.name} não liberou este aplicativo.`,
          }))}
        />
      </div>
      <a href={screen.cancelUrl} className="mt-6 inline-block text-sm text-slate-700 underline hover:text-slate-900">
        Cancelar e voltar para {application.name}
      </a>
    </section>
  );
}
