import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/login-form";
import { SIGN_IN_ERRORS } from "@/lib/auth";
import { safeCallbackUrl } from "@/lib/labels";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export const metadata: Metadata = { title: "Entrar" };

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  if (await getCurrentUser()) redirect(`/perfil?callbackUrl=${encodeURIComponent(callbackUrl)}`);
  const errorKey = typeof params.error === "string" ? params.error : undefined;
  return (
    <section className="mx-auto max-w-sm">
      <h1 className="text-2xl font-bold">Entrar no Hub</h1>
      <p className="mt-2 text-sm text-slate-600">Use o e-mail ou o CPF cadastrado pela sua escola.</p>
      <div className="mt-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <LoginForm callbackUrl={callbackUrl} initialError={errorKey ? (SIGN_IN_ERRORS[errorKey] ?? "Não foi possível entrar.") : undefined} />
      </div>
    </section>
  );
}
