import type { Metadata } from "next";
import Link from "@/components/link";
import { redirect } from "next/navigation";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";

export const metadata: Metadata = { title: "Acesso restrito" };

/** Where requireDeveloper sends a signed-in person who belongs to no edtech. */
export default async function NoDeveloperAccessPage() {
  const user = await getCurrentUser();
  if (!user) redirect(withCallbackUrl("/login", "/desenvolvedor"));
  return (
    <section className="mx-auto max-w-lg py-12 text-center">
      <p className="text-sm font-semibold text-red-600">Erro 403</p>
      <h1 className="mt-2 text-3xl font-bold">Acesso restrito</h1>
      <p className="mt-4 text-slate-600">
        A área do desenvolvedor é para pessoas de edtechs parceiras. Sua conta ({user.name}) não participa de nenhuma edtech cadastrada no Hub.
      </p>
      <p className="mt-2 text-sm text-slate-500">Se a sua empresa já é parceira, peça a quem administra a conta dela no Hub para incluir você.</p>
      <Link href="/" className="mt-8 inline-block rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">
        Voltar ao início
      </Link>
    </section>
  );
}
