import Link from "@/components/link";

export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-6 text-sm text-slate-500">
        <p>Hub Educacional — software livre para redes de ensino.</p>
        <nav className="flex gap-4" aria-label="Rodapé">
          <Link href="/desenvolvedor" className="hover:underline">Para desenvolvedores</Link>
          <Link href="/docs/data-api" className="hover:underline">Data API</Link>
          {/* A plain link: /healthz answers JSON, not a page the client router could show. */}
          <a href="/healthz" className="hover:underline">Status</a>
        </nav>
      </div>
    </footer>
  );
}
