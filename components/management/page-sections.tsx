import type { ComponentProps, ReactNode } from "react";
import { ActionForm } from "./action-form";
import { FilterForm } from "./filter-form";
import { Pagination } from "./pagination";
import { card, sectionTitle } from "./styles";

/**
 * A /gestao list: its heading, then the filter (a GET form on `basePath`), the table given as
 * children, and the pages.
 */
export function ListSection(props: {
  id: string;
  title: string;
  basePath: string;
  filter?: Omit<ComponentProps<typeof FilterForm>, "basePath">;
  pages?: Omit<ComponentProps<typeof Pagination>, "basePath">;
  children: ReactNode;
}) {
  return (
    <section aria-labelledby={`${props.id}-title`} className="space-y-3">
      <h2 id={`${props.id}-title`} className={sectionTitle}>{props.title}</h2>
      {props.filter && <FilterForm basePath={props.basePath} {...props.filter} />}
      {props.children}
      {props.pages && <Pagination basePath={props.basePath} {...props.pages} />}
    </section>
  );
}

/** An `ActionForm`'s props, its accessible name defaulting to the section's title. */
type TSectionForm = Omit<ComponentProps<typeof ActionForm>, "ariaLabel"> & { ariaLabel?: string };

/**
 * What every /gestao create form shares: the school-data command it sends (`type`, and the
 * institution it creates at when the command names one), two columns, fields emptied after a
 * success.
 */
export function createForm(action: TSectionForm["action"], type: string, institutionId?: string) {
  const hidden: Record<string, string> = institutionId ? { type, institutionId } : { type };
  return { action, resetOnSuccess: true, columns: 2 as const, hidden };
}

/**
 * A /gestao card holding one form (create a person, a class, a period, edit a class…), with an
 * optional intro; `children` come after the form, or stand instead of it (a form that cannot be
 * used yet says why).
 */
export function FormSection(props: { id: string; title: string; level?: 2 | 3; intro?: ReactNode; form?: TSectionForm; children?: ReactNode }) {
  const Heading = props.level === 3 ? "h3" : "h2";
  return (
    <section aria-labelledby={`${props.id}-title`} className={card}>
      <Heading id={`${props.id}-title`} className={sectionTitle}>{props.title}</Heading>
      {props.intro && <p className="mt-1 text-sm text-slate-600">{props.intro}</p>}
      <div className="mt-3">
        {props.form && <ActionForm ariaLabel={props.title} {...props.form} />}
        {props.children}
      </div>
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
