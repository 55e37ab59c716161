/** A plain GET form: search works without JavaScript and the URL can be shared or reloaded. */
export function GallerySearch({ defaultValue }: { defaultValue: string }) {
  return (
    <form role="search" action="/" method="get" className="flex w-full gap-2 sm:w-auto">
      <label htmlFor="gallery-q" className="sr-only">Buscar ferramentas</label>
      <input
        id="gallery-q"
        name="q"
        type="search"
        defaultValue={defaultValue}
        placeholder="Buscar por nome ou descrição"
        maxLength={100}
        className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm sm:w-72"
      />
      <button type="submit" className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium hover:bg-slate-100">
        Buscar
      </button>
    </form>
  );
}
