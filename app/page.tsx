import Link from "next/link";
import { ROLE_LABEL } from "@/lib/labels";
import { getCurrentUser } from "@/lib/server/auth/current-user";

export default async function HomePage() {
  const user = await getCurrentUser();
  if (user?.profile) {
    return (
      <section>
        <h1 className="text-2xl font-bold">Olá, {user.name.split(" ")[0]}</h1>
        <p className="mt-1 text-slate-600">{ROLE_LABEL[user.profile.role]} · {user.profile.institution.name}</p>
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
