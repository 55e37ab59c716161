/**
 * A gallery card's pin toggle: a plain form to POST /favoritos, so it works before the page's
 * scripts arrive (or without them) and goes back to `returnTo`.
 */
export function PinForm({ placementId, title, pinned, returnTo }: { placementId: string; title: string; pinned: boolean; returnTo: string }) {
  return (
    <form method="post" action="/favoritos">
      <input type="hidden" name="placementId" value={placementId} />
      <input type="hidden" name="pinned" value={pinned ? "0" : "1"} />
      <input type="hidden" name="returnTo" value={returnTo} />
      <button
        type="submit"
        aria-label={pinned ? `Desafixar ${title}` : `Fixar ${title}`}
        title={pinned ? "Desafixar" : "Fixar no início"}
        className={`rounded-md border px-2 py-1 text-xs font-medium ${pinned ? "border-amber-400 bg-amber-50 text-amber-900 hover:bg-amber-100" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-100"}`}
      >
        {pinned ? "★ Fixada" : "☆ Fixar"}
      </button>
    </form>
  );
}
