import type { Metadata } from "next";
import Link from "@/components/link";
import { notFound } from "next/navigation";
import { LaunchTestRunner } from "@/components/developer/launch-test-runner";
import { env } from "@/lib/env";
import { getDeveloperTool } from "@/lib/server/developer/get-developer-tool";
import { requireDeveloper } from "@/lib/server/developer/require-developer";
import { getLti13Registration } from "@/lib/server/lti13/lti13-registration";
import { runLaunchTestAction } from "../../actions";

type Props = { params: Promise<{ toolId: string }> };

export const metadata: Metadata = { title: "Testar lançamento" };

export default async function LaunchTestPage({ params }: Props) {
  const { toolId } = await params;
  const developer = await requireDeveloper(`/desenvolvedor/ferramentas/${encodeURIComponent(toolId)}/testar`);
  const tool = await getDeveloperTool({ personId: developer.personId, toolId });
  if (!tool) notFound();
  const lti13 = await getLti13Registration({ personId: developer.personId, toolId: tool.id });
  return (
    <section className="space-y-6">
      <div>
        <Link href={`/desenvolvedor/ferramentas/${tool.id}`} className="text-sm font-medium text-brand-700 hover:underline">← {tool.title}</Link>
        <h1 className="mt-3 text-2xl font-bold">Testar lançamento</h1>
        {lti13 ? (
          <p className="mt-1 max-w-3xl text-slate-600">
            Esta ferramenta usa LTI 1.3. Para cada caso, o servidor do Hub faz o login de terceiros no seu endereço de login, lê o <code>state</code> e o{" "}
            <code>nonce</code> do seu redirecionamento e envia um <code>id_token</code> ao seu redirect URI: um válido e cinco que uma ferramenta
            correta deve recusar (401): nonce repetido, <code>id_token</code> expirado, <code>aud</code> errado, <code>kid</code> desconhecido e{" "}
            <code>deployment_id</code> errado. Endereço de login: <code className="break-all">{lti13.loginUrl}</code>.
          </p>
        ) : (
          <p className="mt-1 max-w-3xl text-slate-600">
            O servidor do Hub envia ao seu endpoint um lançamento LTI 1.0 válido e oito lançamentos que uma ferramenta correta deve recusar com
            HTTP 401: assinatura inválida, nonce repetido, timestamp antigo e futuro, <code>lti_version</code> e <code>lti_message_type</code> errados,
            sem <code>resource_link_id</code> e consumer key desconhecida.
          </p>
        )}
      </div>
      <dl className="grid gap-2 rounded-xl border border-slate-200 bg-white p-4 text-sm shadow-sm sm:grid-cols-[12rem_1fr]">
        <dt className="font-medium">Endereço</dt>
        <dd className="break-all font-mono">{tool.launchUrl}</dd>
        <dt className="font-medium">Consumer key</dt>
        <dd className="break-all font-mono">{tool.consumerKey}</dd>
        <dt className="font-medium">Regras do envio</dt>
        <dd className="text-slate-600">
          Sem seguir redirecionamentos, 5 s por requisição, parâmetro <code>custom_hub_launch_test=1</code> em todos os envios.
          {env().DEMO_TOOL_EXPLICIT
            ? " Modo de demonstração (DEMO_TOOL=1): endereços locais e de rede privada são aceitos."
            : " Endereços locais, de rede privada e link-local são recusados."}
        </dd>
      </dl>
      <LaunchTestRunner action={runLaunchTestAction} toolId={tool.id} />
    </section>
  );
}
