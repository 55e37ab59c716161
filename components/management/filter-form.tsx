import Link from "next/link";
import { inputClass, secondaryButton } from "./styles";

export interface TFilterSelect {
  name: string;
  label: string;
  value?: string;
  options: { value: string; label: string }[];
}

/** A GET form for a table: free-text search plus a few selects; the URL keeps the filters. */
export function FilterForm(props: { basePath: string; q?: string; searchLabel: string; placeholder?: string; selects?: TFilterSelect[]; hidden?: Record<string, string> }) {
  const active = Boolean(props.q) || (props.selects ?? []).some((s) => s.value);
  return (
    <form method="get" action={props.basePath} role="search" className="flex flex-wrap items-end gap-3">
      {Object.entries(props.hidden ?? {}).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <div className="min-w-56 flex-1">
        <label htmlFor={`${props.basePath}-q`} className="mb-1 block text-sm font-medium text-slate-800">{props.searchLabel}</label>
        <input id={`${props.basePath}-q`} name="q" type="search" defaultValue={props.q ?? ""} placeholder={props.placeholder} className={inputClass} />
      </div>
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
      <button type="submit" className={secondaryButton}>Filtrar</button>
      {active && <Link href={props.basePath} className="py-1.5 text-sm text-brand-700 hover:underline">Limpar filtros</Link>}
    </form>
  );
}
