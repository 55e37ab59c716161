import type { ComponentProps, ReactNode } from "react";
import { CodeBlock } from "@/components/code-block";
import { PreviewPersonSearch } from "@/components/management/preview-person-search";
import { card, sectionTitle } from "@/components/management/styles";

/** A record as JSON: dark for what the partner receives, light for what the Hub holds. */
function JsonBlock({ value, testId, tone, height = "tall" }: { value: unknown; testId?: string; tone: "partner" | "hub"; height?: "tall" | "short" }) {
  const label = tone === "partner" ? "O que o parceiro recebe (JSON)" : "O que o Hub guarda (JSON)";
  const colours = tone === "partner" ? "bg-slate-900 text-slate-100" : "bg-slate-100 text-slate-800";
  const maxHeight = height === "tall" ? "max-h-[28rem]" : "max-h-[20rem]";
  return (
    <CodeBlock label={label} testId={testId} className={`${maxHeight} overflow-auto rounded-md p-3 text-xs ${colours}`}>
      {JSON.stringify(value, null, 2)}
    </CodeBlock>
  );
}

/** What a partner receives beside what the Hub holds about the same person (the previews of /gestao). */
export function PreviewColumns({ partner, hub }: { partner: { title: ReactNode; value: unknown; testId: string; note?: ReactNode }; hub: { title: ReactNode; value: unknown; empty?: ReactNode } }) {
  return (
    <div className="mt-4 grid gap-4 lg:grid-cols-2">
      <div>
        <h3 className="mb-1 text-sm font-semibold">{partner.title}</h3>
        <JsonBlock value={partner.value} testId={partner.testId} tone="partner" />
        {partner.note}
      </div>
      <div>
        <h3 className="mb-1 text-sm font-semibold">{hub.title}</h3>
        {hub.value === null && hub.empty ? <p className="text-sm text-slate-600">{hub.empty}</p> : <JsonBlock value={hub.value} tone="hub" />}
      </div>
    </div>
  );
}

/** The preview per role: one sample person of each role, as the partner receives them. */
export function PreviewByRole({ idPrefix, intro, samples }: { idPrefix: string; intro: ReactNode; samples: Array<{ role: string; heading: ReactNode; value: unknown; testId: string }> }) {
  if (samples.length === 0) return null;
  return (
    <section aria-labelledby={`${idPrefix}-roles-title`} className="mt-6">
      <h3 id={`${idPrefix}-roles-title`} className="text-sm font-semibold">Por perfil</h3>
      <p className="text-sm text-slate-600">{intro}</p>
      <ul className="mt-2 grid gap-4 lg:grid-cols-2">
        {samples.map((sample) => (
          <li key={sample.role} aria-labelledby={`${idPrefix}-role-${sample.role}`}>
            <h4 id={`${idPrefix}-role-${sample.role}`} className="mb-1 text-sm font-medium">{sample.heading}</h4>
            <JsonBlock value={sample.value} testId={sample.testId} tone="partner" height="short" />
          </li>
        ))}
      </ul>
    </section>
  );
}

/** The "what this partner receives" section of /gestao aplicativos and ferramentas: its title, what it shows, the search for another person, then the preview itself. */
export function PreviewSection(props: { titleId: string; title: ReactNode; intro: ReactNode; search: ComponentProps<typeof PreviewPersonSearch>; children: ReactNode }) {
  return (
    <section id="previa" aria-labelledby={props.titleId} className={card}>
      <h2 id={props.titleId} className={sectionTitle}>{props.title}</h2>
      <p className="mt-1 text-sm text-slate-600">{props.intro}</p>
      <PreviewPersonSearch {...props.search} />
      {props.children}
    </section>
  );
}
