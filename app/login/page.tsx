import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/login-form";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { safeCallbackUrl, withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { schoolOfSignInPage, upstreamStartPath } from "@/lib/server/upstream/find-upstream-for-login";
import { listSignInOptions } from "@/lib/server/upstream/list-sign-in-options";

export const metadata: Metadata = { title: "Entrar" };

const SIGN_IN_ERRORS: Record<string, string> = {
  MissingCredentials: "Informe o e-mail ou CPF e a senha.",
  CredentialsSignin: "E-mail/CPF ou senha incorretos.",
  TooManyAttempts: "Muitas tentativas sem sucesso. Aguarde 15 minutos e tente novamente.",
};

export default async function LoginPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const callbackUrl = safeCallbackUrl(params.callbackUrl);
  // `reauth=1`: an application asked the person to sign in again (OIDC prompt=login), so a
  // signed-in person sees the form too.
  const reauth = params.reauth === "1";
  if (!reauth && (await getCurrentUser())) redirect(withCallbackUrl("/perfil", callbackUrl));
  const errorKey = typeof params.error === "string" ? params.error : undefined;
  // Own keys only: ?error=constructor must not pick up Object.prototype's members.
  const error = errorKey === undefined ? undefined : Object.hasOwn(SIGN_IN_ERRORS, errorKey) ? SIGN_IN_ERRORS[errorKey] : "Não foi possível entrar.";
  // A school's own sign-in link (`/login?escola=…`) offers only its networks' providers.
  const school = schoolOfSignInPage(params.escola);
  const upstream = await listSignInOptions({ institutionId: school });
  return (
    <section className="mx-auto max-w-sm">
      <h1 className="text-2xl font-bold">Entrar no Hub</h1>
      <p className="mt-2 text-sm text-slate-600">
        {reauth ? "O aplicativo pediu que você confirme quem é: entre de novo. " : ""}Use o e-mail ou o CPF cadastrado pela sua escola.
      </p>
      {upstream.length > 0 && (
        <ul aria-label="Entrar com a conta da rede" className="mt-6 space-y-2">
          {upstream.map((option) => (
            <li key={option.providerId}>
              <a href={upstreamStartPath(option.providerId, callbackUrl)}
                className="block w-full rounded-md border border-slate-300 bg-white px-4 py-2 text-center font-medium text-slate-900 shadow-sm hover:bg-slate-50">
                {option.label}
              </a>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-6 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <LoginForm callbackUrl={callbackUrl} error={error} school={school} upstream={upstream.length > 0} />
      </div>
    </section>
  );
}
