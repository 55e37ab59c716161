import Link from "@/components/link";

export default function NotFound() {
  return (
    <section className="mx-auto max-w-lg py-16 text-center">
      <p className="text-sm font-semibold text-brand-600">Erro 404</p>
      <h1 className="mt-2 text-3xl font-bold">Página não encontrada</h1>
      <p className="mt-4 text-slate-600">O endereço pode ter mudado, ou você não tem acesso a este conteúdo.</p>
      <Link href="/" className="mt-8 inline-block rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">
        Voltar ao início
      </Link>
    </section>
  );
}
