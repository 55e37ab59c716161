import type { Metadata } from "next";
import { SignInRefusal } from "@/components/sign-in-refusal";
import { isUpstreamRefusal, UPSTREAM_REFUSALS } from "@/lib/upstream/refusals";

export const metadata: Metadata = { title: "Entrada não concluída" };

// One page per reason an upstream sign-in gives (lib/upstream/refusals.ts): what happened and whom to ask.
export default async function UpstreamRefusedPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { motivo } = await searchParams;
  const reason = UPSTREAM_REFUSALS[isUpstreamRefusal(motivo) ? motivo : "provedor"];
  return <SignInRefusal reason={reason} linkLabel="Voltar à página de entrada" />;
}
