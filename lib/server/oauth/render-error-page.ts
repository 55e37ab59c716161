// The page shown instead of a redirect when the client or its redirect URI cannot be trusted
// (RFC 6749 §4.1.2.1: MUST NOT redirect to an invalid redirection URI). It is plain HTML from the
// route handler, which cannot render the React layout (nor React at all: react-dom/server is
// refused in App Router route handlers); its look follows the product's. Every value goes through
// the hub's one escapeHtml.
import type { OAuthError } from "@/lib/oauth/errors";
import { escapeHtml } from "@/lib/server/launch/html";

function explain(error: OAuthError): { title: string; text: string } {
  if (error.code === "invalid_client") {
    return { title: "Aplicativo não reconhecido", text: "O aplicativo que enviou você para cá não está cadastrado no Hub." };
  }
  if (/redirect_uri/.test(error.description)) {
    return {
      title: "Endereço de retorno não autorizado",
      text: "O aplicativo pediu para voltar a um endereço que não está cadastrado para ele. Por segurança, o Hub não segue esse endereço.",
    };
  }
  return { title: "Pedido de acesso inválido", text: "O link de entrada que o aplicativo gerou está incompleto ou malformado." };
}

export function renderErrorPage(error: OAuthError): string {
  const { title, text } = explain(error);
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Hub Educacional</title>
<style>
  body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8fafc;color:#0f172a}
  header{background:#fff;border-bottom:1px solid #e2e8f0;padding:12px 16px;font-weight:600;color:#0f2a5c}
  main{max-width:36rem;margin:4rem auto;padding:0 1rem;text-align:center}
  .kicker{color:#dc2626;font-size:.875rem;font-weight:600}
  h1{font-size:1.875rem;margin:.5rem 0 0}
  p{color:#475569;line-height:1.5}
  code{display:inline-block;margin-top:1rem;padding:.5rem .75rem;background:#fff;border:1px solid #e2e8f0;border-radius:.5rem;font-size:.8rem;color:#334155;word-break:break-word}
  a{display:inline-block;margin-top:2rem;padding:.6rem 1rem;border-radius:.375rem;background:#1d5fd1;color:#fff;text-decoration:none;font-weight:500}
</style>
</head>
<body>
<header>Hub Educacional</header>
<main>
  <p class="kicker">Não foi possível continuar</p>
  <h1>${escapeHtml(title)}</h1>
  <p>${escapeHtml(text)} Feche esta página e tente entrar de novo pelo aplicativo. Se o problema continuar, avise o suporte do aplicativo com o código abaixo.</p>
  <code>${escapeHtml(error.code)}: ${escapeHtml(error.description)}</code>
  <br><a href="/">Ir para o Hub</a>
</main>
</body>
</html>`;
}
