import type { Metadata } from "next";
import { card, inputClass, primaryButton, sectionTitle } from "@/components/management/styles";
import { UsageBars, UsageDays } from "@/components/management/usage-bars";
import { ROLE_LABEL } from "@/lib/labels";
import { AppError } from "@/lib/errors";
import { requireManagerSection } from "@/lib/server/management/require-manager-page";
import { getInstitutionUsage, type TInstitutionUsage } from "@/lib/server/usage/get-institution-usage";
import { daysBetween, SIGN_IN_METHOD_LABEL, totalsBy, type TUsageRow } from "@/lib/usage/usage";

export const metadata: Metadata = { title: "Uso" };

type Props = { params: Promise<{ institutionId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const roleLabel = (row: TUsageRow) => (row.role ? ROLE_LABEL[row.role] : "Perfil excluído");
const dayLabel = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;

export default async function UsagePage({ params, searchParams }: Props) {
  const raw = await searchParams;
  const { scope, institution, basePath } = await requireManagerSection(params, "uso");
  let usage: TInstitutionUsage | null = null;
  let errors: Record<string, string> = {};
  try {
    usage = await getInstitutionUsage({ scope, institutionId: institution.id, query: raw });
  } catch (error) {
    if (!(error instanceof AppError && error.code === "bad_request")) throw error;
    errors = error.fields ?? { ate: error.message };
  }
  const text = (name: string) => (typeof raw[name] === "string" ? (raw[name] as string) : "");
  const launches = usage?.rows.filter((r) => r.kind === "launch") ?? [];
  const signIns = usage?.rows.filter((r) => r.kind === "sign_in") ?? [];
  const perDay = (rows: TUsageRow[]) => {
    const totals = new Map(totalsBy(rows, (r) => r.day).map((t) => [t.label, t.count]));
    return usage ? daysBetween(usage.from, usage.to).map((day) => ({ day, label: dayLabel(day), count: totals.get(day) ?? 0 })) : [];
  };
  const csvHref = usage ? `${basePath}/csv?${new URLSearchParams({ de: usage.from, ate: usage.to })}` : null;
  return (
    <div className="space-y-6">
      <section aria-labelledby="usage-title" className={card}>
        <h2 id="usage-title" className={sectionTitle}>Uso das ferramentas</h2>
        <p className="mt-1 text-sm text-slate-600">
          Quantas vezes as ferramentas foram abertas e quantas entradas no Hub houve, por dia, por ferramenta, por escola e por tipo de perfil, nesta instituição e nas
          unidades abaixo dela. Só contagens: nenhuma pessoa é identificada. Entradas contam o login com senha de quem tem um perfil, a escolha de um perfil e o crachá.
        </p>
        <form method="get" action={basePath} className="mt-4 flex flex-wrap items-end gap-4" aria-label="Período do uso" noValidate>
          {(["de", "ate"] as const).map((name) => (
            <div key={name}>
              <label htmlFor={`u-${name}`} className="mb-1 block text-sm font-medium">{name === "de" ? "De" : "Até"}</label>
              <input id={`u-${name}`} name={name} type="date" defaultValue={text(name) || (usage ? (name === "de" ? usage.from : usage.to) : "")} aria-invalid={errors[name] ? true : undefined} aria-describedby={errors[name] ? `u-${name}-error` : undefined} className={inputClass} />
              {errors[name] && <p id={`u-${name}-error`} className="mt-1 text-sm text-red-700">{errors[name]}</p>}
            </div>
          ))}
          <button type="submit" className={primaryButton}>Ver período</button>
          {csvHref && (
            <a href={csvHref} className="text-sm font-medium text-brand-700 underline" download>
              Baixar CSV
            </a>
          )}
        </form>
      </section>
      {usage && (
        <>
          <section aria-labelledby="launches-title" className={card}>
            <h2 id="launches-title" className={sectionTitle}>
              Ferramentas abertas: <span data-testid="launch-total">{launches.reduce((n, r) => n + r.count, 0).toLocaleString("pt-BR")}</span>
            </h2>
            <div className="mt-4 grid gap-6 lg:grid-cols-2">
              <UsageBars caption="Por ferramenta" label="Ferramenta" rows={totalsBy(launches, (r) => r.toolName ?? "Ferramenta excluída")} testId="launches-by-tool" />
              <UsageBars caption="Por tipo de perfil" label="Perfil" rows={totalsBy(launches, roleLabel)} testId="launches-by-role" />
              <UsageBars caption="Por escola" label="Instituição" rows={totalsBy(launches, (r) => r.institutionName)} testId="launches-by-school" />
              <UsageDays caption="Por dia" days={perDay(launches)} testId="launches-by-day" />
            </div>
          </section>
          <section aria-labelledby="signins-title" className={card}>
            <h2 id="signins-title" className={sectionTitle}>
              Entradas no Hub: <span data-testid="sign-in-total">{signIns.reduce((n, r) => n + r.count, 0).toLocaleString("pt-BR")}</span>
            </h2>
            <div className="mt-4 grid gap-6 lg:grid-cols-2">
              <UsageBars caption="Por tipo de perfil" label="Perfil" rows={totalsBy(signIns, roleLabel)} testId="sign-ins-by-role" />
              <UsageBars caption="Por forma de entrada" label="Forma" rows={totalsBy(signIns, (r) => SIGN_IN_METHOD_LABEL[r.method ?? "password"])} testId="sign-ins-by-method" />
              <UsageBars caption="Por escola" label="Instituição" rows={totalsBy(signIns, (r) => r.institutionName)} testId="sign-ins-by-school" />
              <UsageDays caption="Por dia" days={perDay(signIns)} testId="sign-ins-by-day" />
            </div>
          </section>
        </>
      )}
    </div>
  );
}
