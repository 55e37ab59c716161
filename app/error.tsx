"use client";
import Link from "@/components/link";

// Never shows the error's message or stack: only a reference the operator can find in the logs.
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <section className="mx-auto max-w-lg py-16 text-center">
      <p className="text-sm font-semibold text-red-600">Algo deu errado</p>
      <h1 className="mt-2 text-3xl font-bold">Não foi possível carregar esta página</h1>
      <p className="mt-4 text-slate-600">Tente novamente em instantes. Se o problema continuar, informe o código abaixo ao suporte.</p>
      {error.digest && <p className="mt-2 font-mono text-xs text-slate-500">Código: {error.digest}</p>}
      <div className="mt-8 flex justify-center gap-3">
        <button type="button" onClick={reset} className="rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">
          Tentar novamente
        </button>
        <Link href="/" className="rounded-md border border-slate-300 px-4 py-2 font-medium hover:bg-slate-100">Início</Link>
      </div>
    </section>
  );
}
