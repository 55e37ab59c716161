import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { DataSubjectSection } from "@/components/my-data/data-subject-section";
import { getCurrentUser } from "@/lib/server/auth/current-user";
import { withCallbackUrl } from "@/lib/server/http/safe-callback-url";
import { DEFAULT_READ_LIMIT } from "@/lib/server/privacy/list-reads-about-profiles";
import { getMyData } from "@/lib/server/privacy/get-my-data";
import { LinkedAccounts } from "@/components/my-data/linked-accounts";
import { listLinkableProviders } from "@/lib/server/upstream/list-sign-in-options";
import { listUpstreamAccounts } from "@/lib/server/upstream/list-upstream-accounts";

export const metadata: Metadata = { title: "Meus dados" };
export const dynamic = "force-dynamic";

const NOTICES: Record<string, string> = { desvinculada: "Conta desvinculada: ela não entra mais no Hub como você." };

export default async function MyDataPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await getCurrentUser();
  if (!user) redirect(withCallbackUrl("/login", "/meus-dados"));
  const [subjects, accounts, providers, { conta }] = await Promise.all([
    getMyData({ personId: user.personId }),
    listUpstreamAccounts({ personId: user.personId }),
    listLinkableProviders({ personId: user.personId }),
    searchParams,
  ]);
  const linkedProviders = new Set(accounts.map((a) => a.providerId));
  const linkable = providers.filter((p) => !linkedProviders.has(p.providerId));
  return (
    <article className="mx-auto max-w-3xl">
      <h1 className="text-2xl font-bold">Meus dados</h1>
      <p className="mt-2 text-slate-700">
        Aqui você vê quais parceiros (aplicativos e ferramentas de edtechs) recebem seus dados pessoais, conforme as regras da sua escola,
        e as leituras mais recentes ({DEFAULT_READ_LIMIT} no máximo). Um dado <strong>anonimizado</strong> chega ao parceiro como um código, nunca como o valor.
        {subjects.length > 1 && " Como responsável, você vê também os dados de cada estudante vinculado a você."}
      </p>
      <p className="mt-4">
        <a href="/meus-dados/exportar" download className="inline-block rounded-md bg-brand-600 px-4 py-2 font-medium text-white hover:bg-brand-700">
          Baixar meus dados (JSON)
        </a>
      </p>
      <p className="mt-2 text-sm text-slate-600">O arquivo traz tudo o que o Hub guarda sobre você — só sobre você, sem dados de outras pessoas.</p>
      <LinkedAccounts accounts={accounts} linkable={linkable} notice={typeof conta === "string" && Object.hasOwn(NOTICES, conta) ? (NOTICES[conta] ?? null) : null} />
      {subjects.map((subject, i) => (
        <DataSubjectSection key={subject.personId} subject={subject} headingId={`titular-${i}`} />
      ))}
    </article>
  );
}
