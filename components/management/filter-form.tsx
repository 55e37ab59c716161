import Link from "@/components/link";
import type { ReactNode } from "react";
import { inputClass, secondaryButton } from "./styles";

export interface TFilterSelect {
  name: string;
  label: string;
  value?: string;
  options: { value: string; label: string }[];
}

/**
 * A GET search form of /gestao: one free-text field named `name` (kept in the URL), any fixed
 * values the page needs back (`hidden`), and whatever the caller adds after the field.
 */
export function SearchForm(props: {
  basePath: string;
  name: string;
  value: string | undefined;
  label: string;
  placeholder?: string;
  submitLabel: string;
  hidden?: Record<string, string>;
  className?: string;
  /** Fields after the text field. */
  children?: ReactNode;
  /** What follows the submit button (a "clear" link). */
  after?: ReactNode;
}) {
  const inputId = `${props.basePath}-${props.name}`;
  return (
    <form method="get" action={props.basePath} role="search" className={`flex flex-wrap items-end gap-3 ${props.className ?? ""}`}>
      {Object.entries(props.hidden ?? {}).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <div className="min-w-56 flex-1">
        <label htmlFor={inputId} className="mb-1 block text-sm font-medium text-slate-800">{props.label}</label>
        <input id={inputId} name={props.name} type="search" defaultValue={props.value ?? ""} placeholder={props.placeholder} className={inputClass} />
      </div>
      {props.children}
      <button type="submit" className={secondaryButton}>{props.submitLabel}</button>
      {props.after}
    </form>
  );
}

/** A GET form for a table: free-text search plus a few selects; the URL keeps the filters. */
export function FilterForm(props: { basePath: string; q?: string; searchLabel: string; placeholder?: string; selects?: TFilterSelect[]; hidden?: Record<string, string> }) {
  const active = Boolean(props.q) || (props.selects ?? []).some((s) => s.value);
  return (
    <SearchForm
      basePath={props.basePath} name="q" value={props.q} label={props.searchLabel} placeholder={props.placeholder} submitLabel="Filtrar"
      hidden={props.hidden}
      after={active && <Link href={props.basePath} className="py-1.5 text-sm text-brand-700 hover:underline">Limpar filtros</Link>}
    >
      {props.selects?.map((s) => (
        <div key={s.name}>
          <label htmlFor={`${props.basePath}-${s.name}`} className="mb-1 block text-sm font-medium text-slate-800">{s.label}</label>
          <select id={`${props.basePath}-${s.name}`} name={s.name} defaultValue={s.value ?? ""} className={inputClass}>
            <option value="">Todos</option>
            {s.options.map((o) => (
              <option key={o.value} value={o.value}>{o.label}</option>
            ))}
          </select>
        </div>
      ))}
    </SearchForm>
  );
}
