import Link from "@/components/link";
import { SearchForm } from "@/components/management/filter-form";

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
  const hrefFor = (profileId: string) => `${props.basePath}?${props.partnerParam}=${props.partnerId}&pessoa=${profileId}#previa`;
  return (
    <>
      <SearchForm
        basePath={props.basePath} name="q" value={props.query} label="Outra pessoa" placeholder="Nome, e-mail ou CPF" submitLabel="Buscar"
        hidden={{ [props.partnerParam]: props.partnerId }} className="mt-3"
      />
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
