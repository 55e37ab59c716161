import type { Metadata } from "next";
import Link from "next/link";
import { isUpstreamRefusal, UPSTREAM_REFUSALS } from "@/lib/upstream/refusals";

export const metadata: Metadata = { title: "Entrada não concluída" };

// One page per reason an upstream sign-in gives (lib/upstream/refusals.ts): what happened and whom to ask.
export default async function UpstreamRefusedPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { motivo } = await searchParams;
  const reason = UPSTREAM_REFUSALS[isUpstreamRefusal(motivo) ? motivo : "provedor"];
  return (
    <section className="mx-auto max-w-lg" aria-labelledby="upstream-refused-title">
      <div role="alert" className="rounded-xl border border-amber-300 bg-amber-50 p-6">
        <h1 id="upstream-refused-title" className="text-2xl font-bold text-slate-900">{reason.title}</h1>
        <p className="mt-3 text-slate-800">{reason.text}</p>
      </div>
      <p className="mt-6 text-sm">
        <Link href="/login" className="font-medium text-brand-700 underline">Voltar à página de entrada</Link>
      </p>
    </section>
  );
}
