import type { THomeApp } from "@/lib/server/oauth/list-home-apps";

/**
 * Applications the current profile's institution has enabled. A card opens the application's
 * own page, which starts the OAuth sign-in for this profile (lib/server/oauth/list-home-apps.ts).
 * Plain links, not next/link: they leave the hub and must not be prefetched.
 */
export function AppCards({ apps }: { apps: THomeApp[] }) {
  if (apps.length === 0) return null;
  return (
    <section aria-labelledby="app-cards-heading" className="mt-10">
      <h2 id="app-cards-heading" className="text-xl font-semibold">Aplicativos</h2>
      <p className="text-sm text-slate-600">Aplicativos parceiros que a sua escola liberou. Eles usam o seu acesso do Hub para você entrar.</p>
      <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {apps.map((app) => (
          <li key={app.clientId} className="flex flex-col rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
            <h3 className="font-semibold">{app.name}</h3>
            <p className="text-xs text-slate-500">{app.edtechName}</p>
            {app.description && <p className="mt-2 flex-1 text-sm text-slate-600">{app.description}</p>}
            <a
              href={app.href}
              aria-label={`Abrir ${app.name}`}
              className="mt-4 self-start rounded-md bg-brand-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-brand-700"
            >
              Abrir
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
