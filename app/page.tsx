import Link from "@/components/link";
import { GalleryEmptyState } from "@/components/gallery-empty-state";
import { GallerySearch } from "@/components/gallery-search";
import { ToolCard } from "@/components/tool-card";
import { AppCards } from "@/components/app-cards";
import { ChipLinks } from "@/components/chip-links";
import { ROLE_LABEL } from "@/lib/labels";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { listTeacherClasses } from "@/lib/server/classes/list-teacher-classes";
import { listHomeGallery } from "@/lib/server/gallery/list-home-gallery";
import { listHomeApps } from "@/lib/server/oauth/list-home-apps";

export default async function HomePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await getCurrentUser();
  if (user?.profile) {
    const params = await searchParams;
    const search = (typeof params.q === "string" ? params.q : "").trim().slice(0, 100);
    const profile = { id: user.profile.id, role: user.profile.role, institutionId: user.profile.institution.id };
    // Every read of the page at once: one round trip's wait, not two.
    const [{ items, recent }, classes, apps] = await Promise.all([
      listHomeGallery({ profile, search }),
      profile.role === "professor" ? listTeacherClasses({ profileId: profile.id }) : Promise.resolve([]),
      listHomeApps({ profileId: profile.id }),
    ]);
    const returnTo = search ? `/?${new URLSearchParams({ q: search })}` : "/";
    return (
      <section>
        <h1 className="text-2xl font-bold">Olá, {user.name.split(" ")[0]}</h1>
        <p className="mt-1 text-slate-600">{ROLE_LABEL[user.profile.role]} · {user.profile.institution.name}</p>
        <ChipLinks
          id="my-classes"
          title="Minhas turmas"
          landmark="nav"
          items={classes.map((c) => ({ key: c.id, href: `/turmas/${c.id}`, page: true, label: <>Turma {c.name} <span className="font-normal text-slate-600">· {c.subjects.join(", ")}</span></> }))}
        />
        <ChipLinks id="recent" title="Usadas recentemente" landmark="section" items={recent.map((item) => ({ key: item.placementId, href: `/launch/${item.placementId}`, page: false, label: item.title }))} />
        <div className="mt-8 flex flex-col gap-3 sm:flex-row sm:items-end sm:justify-between">
          <div>
            <h2 className="text-xl font-semibold">Ferramentas</h2>
            <p className="text-sm text-slate-600">As ferramentas que a sua escola disponibiliza para este perfil.</p>
          </div>
          <GallerySearch defaultValue={search} />
        </div>
        <div className="mt-6">
          {items.length === 0 ? (
            <GalleryEmptyState search={search} />
          ) : (
            <ul className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3" aria-label="Ferramentas disponíveis">
              {items.map((item) => (
                <li key={item.placementId}>
                  <ToolCard {...item} returnTo={returnTo} />
                </li>
              ))}
            </ul>
          )}
        </div>
        <AppCards apps={apps} />
      </section>
    );
  }
  return (
    <section className="py-12 text-center">
      <h1 className="text-4xl font-bold tracking-tight text-brand-900">Hub Educacional</h1>
      <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600">
        Um único acesso para estudantes, professores, responsáveis e gestores — com as ferramentas educacionais parceiras a um clique.
      </p>
      <Link href={user ? "/perfil" : "/login"} className="mt-8 inline-block rounded-md bg-brand-600 px-5 py-2.5 font-medium text-white hover:bg-brand-700">
        {user ? "Escolher perfil" : "Entrar"}
      </Link>
    </section>
  );
}
