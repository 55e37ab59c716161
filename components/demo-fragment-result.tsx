"use client";
import { useSyncExternalStore } from "react";
import { CodeBlock } from "@/components/code-block";

const subscribe = (onChange: () => void) => {
  window.addEventListener("hashchange", onChange);
  return () => window.removeEventListener("hashchange", onChange);
};

/**
 * The demo application's view of an implicit-flow response: the hub puts the tokens in the URL
 * fragment, which only the browser sees (RFC 6749 §4.2.2). Shows them with the user info call
 * to try next.
 */
export function DemoFragmentResult({ issuer }: { issuer: string }) {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash, () => "");
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  if (!params.has("access_token") && !params.has("id_token") && !params.has("error")) return null;
  const entries = [...params.entries()];
  const token = params.get("access_token");
  const userId = params.get("user_id");
  return (
    <section aria-labelledby="fragment-heading" className="mt-8 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="fragment-heading" className="text-lg font-semibold">Resposta do fluxo implícito (fragmento da URL)</h2>
      <dl className="mt-3 space-y-2 text-sm">
        {entries.map(([name, value]) => (
          <div key={name}>
            <dt className="font-mono text-slate-500">{name}</dt>
            <dd className="break-all font-mono">{value}</dd>
          </div>
        ))}
      </dl>
      {token && userId && (
        <>
          <p className="mt-4 text-sm text-slate-600">Consulte as informações do usuário com o token:</p>
          <CodeBlock label="Chamada de informações do usuário com curl" className="mt-2 overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100">
            {`curl -s ${issuer}/users/v1/users/info \\\n  -H 'authorization: Bearer ${token}' \\\n  -H 'x-relationship-id: ${userId}'`}
          </CodeBlock>
        </>
      )}
    </section>
  );
}
