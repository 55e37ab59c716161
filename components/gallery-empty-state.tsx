import Link from "@/components/link";

/** No tools at all, or none matching the search: say which, and what to do next. */
export function GalleryEmptyState({ search }: { search: string }) {
  return (
    <div role="status" className="rounded-xl border border-dashed border-slate-300 bg-white px-6 py-12 text-center">
      <p aria-hidden className="text-4xl">{search ? "🔎" : "🧰"}</p>
      {search ? (
        <>
          <h3 className="mt-3 text-lg font-semibold">Nenhuma ferramenta encontrada para “{search}”</h3>
          <p className="mt-1 text-sm text-slate-600">Confira a grafia ou busque por outra palavra do nome ou da descrição.</p>
          <Link href="/" className="mt-5 inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-medium text-white hover:bg-brand-700">
            Ver todas as ferramentas
          </Link>
        </>
      ) : (
        <>
          <h3 className="mt-3 text-lg font-semibold">Ainda não há ferramentas para este perfil</h3>
          <p className="mx-auto mt-1 max-w-md text-sm text-slate-600">
            Quando a sua escola disponibilizar ferramentas para o seu perfil, elas aparecerão aqui. Se você tem outro perfil, troque no topo da página.
          </p>
        </>
      )}
    </div>
  );
}
