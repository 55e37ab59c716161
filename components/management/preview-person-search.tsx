import Link from "next/link";
import { inputClass, secondaryButton } from "@/components/management/styles";

/**
 * The preview's "another person" search on /gestao aplicativos and ferramentas: a GET form that
 * keeps the partner selected (`partnerParam`), and the people found as links to their preview.
 */
export function PreviewPersonSearch(props: {
  basePath: string;
  partnerParam: string;
  partnerId: string;
  query: string | undefined;
  people: { items: { profileId: string; name: string }[] } | null;
}) {
  const inputId = `${props.partnerParam}-preview-q`;
  const hrefFor = (profileId: string) => `${props.basePath}?${props.partnerParam}=${props.partnerId}&pessoa=${profileId}#previa`;
  return (
    <>
      <form method="get" action={props.basePath} className="mt-3 flex flex-wrap items-end gap-3" role="search">
        <input type="hidden" name={props.partnerParam} value={props.partnerId} />
        <div className="min-w-64 flex-1">
          <label htmlFor={inputId} className="mb-1 block text-sm font-medium">Outra pessoa</label>
          <input id={inputId} name="q" type="search" defaultValue={props.query ?? ""} placeholder="Nome, e-mail ou CPF" className={inputClass} />
        </div>
        <button type="submit" className={secondaryButton}>Buscar</button>
      </form>
      {props.people && (
        <ul className="mt-2 flex flex-wrap gap-2 text-sm">
          {props.people.items.length === 0 ? (
            <li className="text-slate-600">Ninguém encontrado.</li>
          ) : (
            props.people.items.map((p) => (
              <li key={p.profileId}>
                <Link href={hrefFor(p.profileId)} className="rounded-full border border-slate-300 px-3 py-1 hover:bg-slate-100">{p.name}</Link>
              </li>
            ))
          )}
        </ul>
      )}
    </>
  );
}
