import type { ReactNode } from "react";
import { card, sectionTitle } from "./styles";

/** A /gestao list: its heading, then the filter, the table and the pages. */
export function ListSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3">
      <h2 id={`${id}-title`} className={sectionTitle}>{title}</h2>
      {children}
    </section>
  );
}

/** A /gestao card holding one form (create a person, a class, a period…), with an optional intro. */
export function FormSection({ id, title, intro, children }: { id: string; title: string; intro?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className={card}>
      <h2 id={`${id}-title`} className={sectionTitle}>{title}</h2>
      {intro && <p className="mt-1 text-sm text-slate-600">{intro}</p>}
      <div className="mt-3">{children}</div>
    </section>
  );
}

/** A row's edit form, folded until "Editar" is opened. */
function InlineEdit({ children }: { children: ReactNode }) {
  return (
    <details>
      <summary className="cursor-pointer text-sm text-brand-700">Editar</summary>
      <div className="mt-2 w-72">{children}</div>
    </details>
  );
}

/** A row's actions: its folded edit form, then its delete button, or why it cannot be deleted. */
export function RowActions({ edit, remove, keptBecause }: { edit: ReactNode; remove: ReactNode | null; keptBecause: string }) {
  return (
    <div className="flex flex-col items-start gap-2">
      <InlineEdit>{edit}</InlineEdit>
      {remove ?? <span className="text-xs text-slate-500">{keptBecause}</span>}
    </div>
  );
}
