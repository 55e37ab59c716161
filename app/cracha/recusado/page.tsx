import type { Metadata } from "next";
import { SignInRefusal } from "@/components/sign-in-refusal";

export const metadata: Metadata = { title: "Crachá não aceito" };

// One page per reason signInWithCard gives (lib/server/cards/sign-in-with-card.ts): what happened
// and what to do, in words a teacher can act on at once.
const REASONS: Record<string, { title: string; text: string }> = {
  desconhecido: {
    title: "Este crachá não foi reconhecido",
    text: "O código não corresponde a nenhum crachá do Hub. Confira se a câmera leu o código inteiro ou peça um crachá novo à escola.",
  },
  substituido: {
    title: "Este crachá foi substituído",
    text: "Um crachá novo foi impresso para este aluno, e este deixou de valer. Use o crachá mais recente ou peça um à professora.",
  },
  rede: {
    title: "Crachá aceito só na rede da escola",
    text: "A escola permite entrar com crachá apenas a partir das redes dela. Conecte o aparelho à rede da escola e leia o crachá de novo.",
  },
  perfil: {
    title: "Este crachá não pode ser usado",
    text: "A escola permite entrar com crachá apenas a alunos. Entre com e-mail ou CPF e senha.",
  },
  tentativas: {
    title: "Muitas tentativas sem sucesso",
    text: "Este aparelho leu muitos códigos que não são crachás. Aguarde 15 minutos e tente de novo.",
  },
};

const UNKNOWN = REASONS.desconhecido!;

export default async function CardRefusedPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const { motivo } = await searchParams;
  const reason = typeof motivo === "string" && Object.hasOwn(REASONS, motivo) ? REASONS[motivo]! : UNKNOWN;
  return <SignInRefusal reason={reason} linkLabel="Entrar com e-mail ou CPF" />;
}
