import type { Metadata } from "next";
import { ActionForm, type TFieldSpec } from "@/components/management/action-form";
import { ConfirmAction } from "@/components/management/confirm-action";
import { formatDateTime } from "@/components/management/labels";
import { card, sectionTitle } from "@/components/management/styles";
import { env } from "@/lib/env";
import { requireManagerSection } from "@/lib/server/management/require-manager-page";
import { listIdentityProviders, type TManagedProvider } from "@/lib/server/upstream/list-identity-providers";
import { upstreamRedirectUri } from "@/lib/server/upstream/upstream-client";
import { PROVIDER_KINDS, PROVIDER_PRESETS, type TProviderKind } from "@/lib/upstream/presets";
import { identityProviderAction, identityProviderStateAction } from "../actions";

export const metadata: Metadata = { title: "Entrada com contas da rede" };

type Props = { params: Promise<{ institutionId: string }> };

const KIND_OPTIONS = PROVIDER_KINDS.map((k) => ({ value: k, label: k === "oidc" ? "Outro provedor OpenID Connect" : PROVIDER_PRESETS[k].label }));
const LINK_RULE_LABEL = { email: "E-mail verificado de um domínio da rede", cpf: "CPF" } as const;
const EMAIL_KINDS: TProviderKind[] = ["google", "microsoft", "oidc"];

/** The fields a kind of provider has beside the common ones (the new-provider form shows them as the kind is picked). */
const KIND_FIELDS: Record<string, TProviderKind[]> = { tenantId: ["microsoft"], allowedDomains: EMAIL_KINDS, linkRule: ["oidc"] };

/**
 * The provider form's fields, filled with a provider's settings when editing (never its secret):
 * the new-provider form shows a kind's own fields as the kind is picked, the edit form only its kind's.
 */
function providerFields(p?: TManagedProvider): TFieldSpec[] {
  return allProviderFields(p).filter((f) => !p || !KIND_FIELDS[f.name] || KIND_FIELDS[f.name]!.includes(p.kind));
}

function allProviderFields(p?: TManagedProvider): TFieldSpec[] {
  return [
    ...(p ? [] : [{ name: "kind", label: "Provedor", type: "select" as const, options: KIND_OPTIONS, defaultValue: "google", required: true }]),
    { name: "name", label: "Nome no botão", defaultValue: p?.name ?? "", hint: "Aparece como “Entrar com …”. Em branco: o nome do provedor.", maxLength: 60 },
    {
      name: "tenantId",
      label: "ID do locatário (tenant ID)",
      defaultValue: p?.tenantId ?? "",
      required: true,
      hint: "Microsoft Entra ID → Visão geral → ID do diretório (locatário). Só contas deste locatário entram.",
      ...(p ? {} : { showWhen: { field: "kind", in: KIND_FIELDS.tenantId! } }),
    },
    {
      name: "issuer",
      label: "Emissor (issuer)",
      defaultValue: p?.issuer ?? "",
      hint: "Em branco: o do provedor (Google: https://accounts.google.com; Microsoft: https://login.microsoftonline.com/{tenant}/v2.0; gov.br: https://sso.acesso.gov.br).",
      maxLength: 300,
    },
    { name: "clientId", label: "Client ID", defaultValue: p?.clientId ?? "", required: true, maxLength: 255 },
    {
      name: "clientSecret",
      label: p ? "Novo client secret" : "Client secret",
      type: "password",
      required: !p,
      autoComplete: "new-password",
      hint: p ? "Em branco: continua o segredo guardado. Ele nunca é mostrado." : "Guardado cifrado; não será mostrado de novo.",
      maxLength: 512,
    },
    {
      name: "allowedDomains",
      label: "Domínios de e-mail da rede",
      type: "textarea",
      defaultValue: p?.allowedDomains.join("\n") ?? "",
      hint: "Um por linha (ex.: escola.sp.gov.br). Só contas com e-mail verificado nestes domínios entram.",
      ...(p ? {} : { showWhen: { field: "kind", in: KIND_FIELDS.allowedDomains! } }),
    },
    {
      name: "linkRule",
      label: "Como a conta encontra a pessoa no Hub",
      type: "select",
      options: [
        { value: "email", label: LINK_RULE_LABEL.email },
        { value: "cpf", label: "CPF (claim cpf ou sub)" },
      ],
      defaultValue: p?.linkRule ?? "email",
      ...(p ? {} : { showWhen: { field: "kind", in: KIND_FIELDS.linkRule! } }),
    },
    {
      name: "enabled",
      label: "Situação",
      type: "radio",
      options: [
        { value: "1", label: "Ativa" },
        { value: "0", label: "Desativada" },
      ],
      defaultValue: p ? (p.enabled ? "1" : "0") : "1",
    },
  ];
}

function ProviderRow({ provider, institutionId }: { provider: TManagedProvider; institutionId: string }) {
  const stateAction = identityProviderStateAction.bind(null, institutionId);
  const saveAction = identityProviderAction.bind(null, institutionId);
  const kindLabel = provider.kind === "oidc" ? "OpenID Connect" : PROVIDER_PRESETS[provider.kind].label;
  return (
    <li className="space-y-3 px-4 py-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <p className="font-medium">
            {provider.name}
            {provider.name !== kindLabel && <span className="ml-1 text-sm font-normal text-slate-600">({kindLabel})</span>}
            <span className={`ml-2 rounded-full px-2 py-0.5 text-xs ${provider.enabled ? "bg-green-100 text-green-800" : "bg-slate-200 text-slate-700"}`}>
              {provider.enabled ? "Ativa" : "Desativada"}
            </span>
          </p>
          <dl className="mt-1 grid gap-x-3 text-sm text-slate-700 sm:grid-cols-[auto_1fr]">
            <dt className="font-medium">Emissor</dt>
            <dd className="break-all">{provider.issuer}</dd>
            <dt className="font-medium">Client ID</dt>
            <dd className="break-all">{provider.clientId}</dd>
            <dt className="font-medium">Vínculo</dt>
            <dd>{LINK_RULE_LABEL[provider.linkRule]}{provider.linkRule === "email" ? `: ${provider.allowedDomains.join(", ")}` : ""}</dd>
            <dt className="font-medium">Contas vinculadas</dt>
            <dd>{provider.linkedAccounts.toLocaleString("pt-BR")}</dd>
            <dt className="font-medium">Alterada em</dt>
            <dd>{formatDateTime(provider.updatedAt)}</dd>
          </dl>
          {provider.inherited && <p className="mt-1 text-sm text-slate-600">Definida por {provider.inherited.institutionName}: vale aqui também.</p>}
        </div>
        {!provider.inherited && (
          <div className="flex flex-wrap gap-2">
            <ConfirmAction
              action={stateAction}
              hidden={{ providerId: provider.id, op: provider.enabled ? "disable" : "enable" }}
              label={provider.enabled ? "Desativar" : "Ativar"}
              ariaLabel={`${provider.enabled ? "Desativar" : "Ativar"} ${provider.name}`}
            />
            <ConfirmAction
              action={stateAction}
              hidden={{ providerId: provider.id, op: "delete" }}
              label="Excluir"
              ariaLabel={`Excluir ${provider.name}`}
              question={`Excluir? As ${provider.linkedAccounts} contas vinculadas por ele deixam de entrar.`}
              danger
            />
          </div>
        )}
      </div>
      {!provider.inherited && (
        <details>
          <summary className="cursor-pointer text-sm font-medium text-brand-700">Editar {provider.name}</summary>
          <div className="mt-3">
            <ActionForm action={saveAction} fields={providerFields(provider)} hidden={{ providerId: provider.id, kind: provider.kind }} submitLabel="Salvar" ariaLabel={`Editar ${provider.name}`} columns={2} />
          </div>
        </details>
      )}
    </li>
  );
}

export default async function SignInProvidersPage({ params }: Props) {
  const { scope, institution } = await requireManagerSection(params, "entrada");
  const providers = await listIdentityProviders({ scope, institutionId: institution.id });
  const saveAction = identityProviderAction.bind(null, institution.id);
  const base = env().HUB_BASE_URL;
  return (
    <div className="space-y-8">
      <section aria-labelledby="providers-title" className="space-y-3">
        <h2 id="providers-title" className={sectionTitle}>Entrada com contas da rede</h2>
        <p className="text-sm text-slate-600">
          Alunos, professores e responsáveis entram com a conta que a rede já lhes deu (Google Workspace, Microsoft 365, gov.br), sem mais uma senha.
          A conta entra como a pessoa que já está no cadastro: pelo e-mail verificado de um domínio da rede, ou pelo CPF no gov.br. Ninguém é criado
          por aqui. As formas de entrada valem para esta instituição e todas as unidades abaixo dela.
        </p>
        <div className={`${card} space-y-2 text-sm`}>
          <p>
            <span className="font-medium">Endereço de retorno</span> (redirect URI) a registrar no provedor:{" "}
            <code className="break-all rounded bg-slate-100 px-1">{upstreamRedirectUri()}</code>
          </p>
          <p>
            <span className="font-medium">Link de entrada desta instituição</span> (mostra só as formas de entrada dela):{" "}
            <code className="break-all rounded bg-slate-100 px-1">{`${base}/login?escola=${institution.id}`}</code>
          </p>
          <p>O passo a passo para registrar o Hub no Google, na Microsoft e no gov.br está na documentação do Hub (docs/sign-in.md).</p>
        </div>
        {providers.length === 0 ? (
          <div className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-600">
            Nenhuma forma de entrada com contas da rede. Todos entram com e-mail ou CPF e senha (ou crachá). Adicione uma abaixo.
          </div>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm">
            {providers.map((p) => (
              <ProviderRow key={p.id} provider={p} institutionId={institution.id} />
            ))}
          </ul>
        )}
      </section>
      <section aria-labelledby="new-provider-title" className={card}>
        <h2 id="new-provider-title" className={sectionTitle}>Adicionar forma de entrada</h2>
        <div className="mt-3">
          <ActionForm action={saveAction} fields={providerFields()} submitLabel="Adicionar" ariaLabel="Adicionar forma de entrada" columns={2} resetOnSuccess />
        </div>
      </section>
    </div>
  );
}
