import { formatDateTime } from "@/components/management/labels";
import { PROVIDER_PRESETS } from "@/lib/upstream/presets";
import type { TUpstreamAccountRow } from "@/lib/server/upstream/list-upstream-accounts";
import type { TSignInOption } from "@/lib/server/upstream/list-sign-in-options";

/**
 * The person's upstream accounts (Google, Microsoft, gov.br…): each with a plain "Desvincular"
 * form, and links to connect an account of a provider the person's networks offer.
 */
export function LinkedAccounts({ accounts, linkable, notice }: { accounts: TUpstreamAccountRow[]; linkable: TSignInOption[]; notice: string | null }) {
  if (accounts.length === 0 && linkable.length === 0) return null;
  return (
    <section aria-labelledby="contas-vinculadas" className="mt-8">
      <h2 id="contas-vinculadas" className="text-xl font-semibold">Contas vinculadas</h2>
      <p className="mt-1 text-sm text-slate-600">Contas da rede com que você entra no Hub sem a senha do Hub.</p>
      {notice && <p role="status" className="mt-3 rounded-md bg-green-50 px-3 py-2 text-sm text-green-800">{notice}</p>}
      {accounts.length === 0 ? (
        <p className="mt-3 rounded-xl border border-dashed border-slate-300 bg-white p-4 text-slate-600">Nenhuma conta vinculada.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white">
          {accounts.map((a) => (
            <li key={a.id} className="flex flex-wrap items-center justify-between gap-3 px-4 py-3">
              <span>
                <span className="font-medium">{a.providerName || PROVIDER_PRESETS[a.kind].label}</span>
                {a.email && <span className="ml-2 break-all text-slate-700">{a.email}</span>}
                <span className="block text-sm text-slate-600">
                  Vinculada em {formatDateTime(a.createdAt)} · último uso em {formatDateTime(a.lastUsedAt)}
                </span>
              </span>
              <form method="post" action="/meus-dados/contas">
                <input type="hidden" name="accountId" value={a.id} />
                <button type="submit" aria-label={`Desvincular ${a.providerName}${a.email ? ` (${a.email})` : ""}`}
                  className="rounded-md border border-red-300 px-3 py-1.5 text-sm font-medium text-red-700 hover:bg-red-50">
                  Desvincular
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
      {linkable.length > 0 && (
        <ul aria-label="Vincular uma conta" className="mt-3 flex flex-wrap gap-2">
          {linkable.map((o) => (
            <li key={o.providerId}>
              <a href={`/entrar/com/${o.providerId}?vincular=1&callbackUrl=%2Fmeus-dados`}
                className="inline-block rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm font-medium text-slate-900 hover:bg-slate-50">
                Vincular conta {o.name}
              </a>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
