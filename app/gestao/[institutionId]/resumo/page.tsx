import type { Metadata } from "next";
import Link from "@/components/link";
import { ENTITY_LABEL, EVENT_LABEL } from "@/components/management/labels";
import { card, inputClass, primaryButton, sectionTitle } from "@/components/management/styles";
import { KindLegend, SummaryTree, Timeline } from "@/components/management/summary-charts";
import { requireManagerSection } from "@/lib/server/management/require-manager-page";
import { summarizeInstitution } from "@/lib/server/management/summarize-institution";
import { ENTITY_NAMES, EVENT_KINDS } from "@/lib/validations/data-api";
import { ZSummaryFiltersSchema } from "@/lib/validations/management";

export const metadata: Metadata = { title: "Resumo" };

type Props = { params: Promise<{ institutionId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

export default async function SummaryPage({ params, searchParams }: Props) {
  const raw = await searchParams;
  const { scope, institution, basePath } = await requireManagerSection(params, "resumo");
  const parsed = ZSummaryFiltersSchema.safeParse(raw);
  const errors: Record<string, string> = {};
  if (!parsed.success) for (const issue of parsed.error.issues) errors[String(issue.path[0] ?? "_")] ??= issue.message;
  const filters = parsed.success ? parsed.data : {};
  const summary = parsed.success ? await summarizeInstitution({ scope, institutionId: institution.id, filters: raw }) : null;
  const text = (name: string) => (typeof raw[name] === "string" ? (raw[name] as string) : "");
  const checked = (name: "evento" | "entidade", value: string) => {
    const list = parsed.success ? parsed.data[name] : undefined;
    return !list || list.includes(value as never);
  };
  return (
    <div className="space-y-6">
      <section aria-labelledby="summary-filters" className={card}>
        <h2 id="summary-filters" className={sectionTitle}>Resumo de eventos</h2>
        <p className="mt-1 text-sm text-slate-600">
          As mesmas contagens que as aplicações recebem em <code>/manager/v1/summary/{institution.id}</code>: inclusões, alterações e exclusões por entidade,
          nesta instituição e nas unidades abaixo dela.
        </p>
        <form method="get" action={basePath} className="mt-4 space-y-4" aria-label="Filtros do resumo" noValidate>
          <div className="flex flex-wrap gap-4">
            {(["de", "ate"] as const).map((name) => (
              <div key={name}>
                <label htmlFor={`f-${name}`} className="mb-1 block text-sm font-medium">{name === "de" ? "De" : "Até"}</label>
                <input id={`f-${name}`} name={name} type="date" defaultValue={text(name)} aria-invalid={errors[name] ? true : undefined} aria-describedby={errors[name] ? `f-${name}-error` : undefined} className={inputClass} />
                {errors[name] && <p id={`f-${name}-error`} className="mt-1 text-sm text-red-700">{errors[name]}</p>}
              </div>
            ))}
          </div>
          <fieldset>
            <legend className="mb-1 text-sm font-medium">Eventos</legend>
            <div className="flex flex-wrap gap-4">
              {EVENT_KINDS.map((k) => (
                <label key={k} className="inline-flex items-center gap-2 text-sm">
                  <input type="checkbox" name="evento" value={k} defaultChecked={checked("evento", k)} /> {EVENT_LABEL[k]}
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset>
            <legend className="mb-1 text-sm font-medium">Entidades</legend>
            <div className="flex flex-wrap gap-x-4 gap-y-1">
              {ENTITY_NAMES.map((e) => (
                <label key={e} className="inline-flex items-center gap-2 text-sm">
                  <input type="checkbox" name="entidade" value={e} defaultChecked={checked("entidade", e)} /> {ENTITY_LABEL[e]}
                </label>
              ))}
            </div>
          </fieldset>
          <div className="flex items-center gap-3">
            <button type="submit" className={primaryButton}>Aplicar filtros</button>
            <Link href={basePath} className="text-sm text-brand-700 hover:underline">Limpar</Link>
          </div>
        </form>
      </section>

      {!summary ? (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-800">Corrija os filtros indicados para ver o resumo.</p>
      ) : (
        <>
          <section aria-labelledby="timeline-title" className={card}>
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h3 id="timeline-title" className="font-semibold">
                Eventos por {summary.timeline.unit === "day" ? "dia" : "mês"} ({summary.timeline.from.split("-").reverse().join("/")} a {summary.timeline.to.split("-").reverse().join("/")})
              </h3>
              <KindLegend kinds={summary.kinds} />
            </div>
            {!filters.de && <p className="text-xs text-slate-500">Sem data inicial, o gráfico mostra os últimos 30 dias; as contagens abaixo cobrem todo o histórico.</p>}
            <Timeline points={summary.timeline.points} kinds={summary.kinds} unit={summary.timeline.unit} />
          </section>
          <SummaryTree node={summary.tree} entities={summary.entities} kinds={summary.kinds} />
        </>
      )}
    </div>
  );
}
