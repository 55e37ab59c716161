import { SubmitButton } from "./submit-button";

/**
 * The sign-in form: a plain POST to /entrar, so it works before (or without) JavaScript and the
 * password never lands in a URL. Errors come back as /login?error=…; an e-mail of a network that
 * signs in upstream, with no password, goes on to that network's provider (home-realm discovery).
 */
export function LoginForm({ callbackUrl, error, school, upstream }: { callbackUrl: string; error?: string; school?: string | null; upstream?: boolean }) {
  return (
    <form method="post" action="/entrar" className="space-y-4">
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      {school && <input type="hidden" name="escola" value={school} />}
      <div>
        <label htmlFor="login" className="block text-sm font-medium">E-mail ou CPF</label>
        <input id="login" name="login" type="text" autoComplete="username" required maxLength={254}
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2" />
      </div>
      <div>
        <label htmlFor="password" className="block text-sm font-medium">Senha</label>
        {/* Not `required`: an e-mail of a network that signs in with Google, Microsoft or gov.br goes there without one. */}
        <input id="password" name="password" type="password" autoComplete="current-password" maxLength={200}
          aria-describedby={upstream ? "password-hint" : undefined}
          className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2" />
        {upstream && (
          <p id="password-hint" className="mt-1 text-sm text-slate-600">
            Tem conta da rede (Google, Microsoft ou gov.br)? Use um botão acima, ou digite o e-mail da rede e deixe a senha em branco.
          </p>
        )}
      </div>
      {error && <p role="alert" className="rounded-md bg-red-50 px-3 py-2 text-sm text-red-700">{error}</p>}
      <SubmitButton pendingLabel="Entrando…"
        className="w-full rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700 disabled:opacity-60">
        Entrar
      </SubmitButton>
    </form>
  );
}
