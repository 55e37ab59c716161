import type { Metadata } from "next";
import { Fragment } from "react";
import { AccessLogTabs } from "@/components/management/access-log-tabs";
import { DataTable } from "@/components/data-table";
import { ATTRIBUTE_LABEL, formatDateTime } from "@/components/management/labels";
import { Pagination } from "@/components/management/pagination";
import { inputClass, secondaryButton, sectionTitle } from "@/components/management/styles";
import { listSharingRuleChanges, type TRuleChange, type TRuleChangeRow, type TSharingRules } from "@/lib/server/management/list-sharing-rule-changes";
import { requireManagerSection } from "@/lib/server/management/require-manager-page";
import { ROLE_LABEL } from "@/lib/labels";
import { PROFILE_ROLES } from "@/lib/validations/data-api";
import { ZRuleHistoryQuerySchema } from "@/lib/validations/management";
import type { TProviderSettings } from "@/lib/server/upstream/provider-settings";

export const metadata: Metadata = { title: "Mudanças nas regras de compartilhamento" };

type Props = { params: Promise<{ institutionId: string }>; searchParams: Promise<Record<string, string | string[] | undefined>> };

const KIND_LABEL: Record<TRuleChangeRow["partner"]["kind"], string> = { application: "Aplicação", tool: "Ferramenta", edtech: "Edtech (vínculo)", provider: "Forma de entrada" };
const DELETED_LABEL: Record<TRuleChangeRow["partner"]["kind"], string> = {
  application: "aplicação excluída",
  tool: "ferramenta excluída",
  edtech: "edtech excluída",
  provider: "forma de entrada excluída",
};

function Provider({ settings, label, credentialReplaced }: { settings: TProviderSettings | null; label: string; credentialReplaced: boolean }) {
  if (!settings) return <p><span className="sr-only">{label}: </span><span className="text-slate-500">Não existia</span></p>;
  return (
    <dl className="space-y-0.5" aria-label={label}>
      <div><dt className="inline font-medium">Situação: </dt><dd className="inline">{settings.enabled ? "ativa" : "desativada"}</dd></div>
      <div><dt className="inline font-medium">Emissor: </dt><dd className="inline break-all">{settings.issuer}</dd></div>
      <div><dt className="inline font-medium">Client ID: </dt><dd className="inline break-all">{settings.clientId}</dd></div>
      {settings.tenantId && <div><dt className="inline font-medium">Locatário: </dt><dd className="inline">{settings.tenantId}</dd></div>}
      <div>
        <dt className="inline font-medium">Vínculo: </dt>
        <dd className="inline">{settings.linkRule === "cpf" ? "CPF" : `e-mail verificado (${settings.allowedDomains.join(", ")})`}</dd>
      </div>
      {credentialReplaced && <div><dt className="inline font-medium">Client secret: </dt><dd className="inline">trocado</dd></div>}
    </dl>
  );
}

const attributeLabel = (name: string) => (ATTRIBUTE_LABEL as Record<string, string>)[name] ?? name;

/** `application`: the rule also says whether OneRoster 1.2 is on (off when the audit row does not say). */
function Rules({ rules, label, application }: { rules: TSharingRules | null; label: string; application: boolean }) {
  if (!rules) return <p><span className="sr-only">{label}: </span><span className="text-slate-500">Sem regra própria (vale a da instituição acima)</span></p>;
  const lists = (r: { allowed: string[]; anonymized: string[] }, prefix = "") => {
    const shared = r.allowed.filter((a) => !r.anonymized.includes(a));
    const anonymized = r.allowed.filter((a) => r.anonymized.includes(a));
    return (
      <>
        <div><dt className="inline font-medium">{prefix}Compartilhados: </dt><dd className="inline">{shared.length ? shared.map(attributeLabel).join(", ") : "nenhum"}</dd></div>
        <div><dt className="inline font-medium">{prefix}Anonimizados: </dt><dd className="inline">{anonymized.length ? anonymized.map(attributeLabel).join(", ") : "nenhum"}</dd></div>
      </>
    );
  };
  const overridden = PROFILE_ROLES.filter((role) => rules.roles?.[role]);
  return (
    <dl className="space-y-0.5" aria-label={label}>
      {lists(rules)}
      {overridden.map((role) => (
        <Fragment key={role}>{lists(rules.roles![role]!, `${ROLE_LABEL[role]} · `)}</Fragment>
      ))}
      {application && (
        <div><dt className="inline font-medium">OneRoster 1.2: </dt><dd className="inline">{rules.oneRoster ? "habilitado" : "não habilitado"}</dd></div>
      )}
    </dl>
  );
}

function Change({ change, side, partnerKind }: { change: TRuleChange; side: "before" | "after"; partnerKind: TRuleChangeRow["partner"]["kind"] }) {
  const label = side === "before" ? "Antes" : "Depois";
  if (change.kind === "contract") return <p><span className="sr-only">{label}: </span>{change[side] ? "Vinculada" : "Sem vínculo"}</p>;
  if (change.kind === "provider") return <Provider settings={change[side]} label={label} credentialReplaced={side === "after" && change.credentialReplaced} />;
  return <Rules rules={change[side]} label={label} application={partnerKind === "application"} />;
}

export default async function RuleHistoryPage({ params, searchParams }: Props) {
  const query = ZRuleHistoryQuerySchema.parse(await searchParams);
  const { scope, institution, basePath } = await requireManagerSection(params, "acessos/regras");
  const result = await listSharingRuleChanges({ scope, institutionId: institution.id, partnerId: query.parceiro, page: query.page });
  return (
    <section aria-labelledby="rules-title" className="space-y-3">
      <h2 id="rules-title" className={sectionTitle}>Mudanças nas regras de compartilhamento</h2>
      <AccessLogTabs institutionId={institution.id} current="regras" />
      <p className="text-sm text-slate-600">
        Quem mudou, e quando, o que cada parceiro recebe desta instituição e das unidades abaixo dela: os atributos compartilhados e anonimizados de
        cada aplicação (e se ela lê pelo OneRoster 1.2), os vínculos com edtechs e as formas de entrada com contas da rede, com o estado antes e depois.
      </p>
      <form method="get" action={basePath} className="flex flex-wrap items-end gap-3" aria-label="Filtrar mudanças">
        <div>
          <label htmlFor="parceiro" className="mb-1 block text-sm font-medium">Parceiro</label>
          <select id="parceiro" name="parceiro" defaultValue={query.parceiro ?? ""} className={inputClass}>
            <option value="">Todos</option>
            {result.partners.map((p) => (
              <option key={p.id} value={p.id}>{`${p.name || KIND_LABEL[p.kind]} (${p.deleted ? DELETED_LABEL[p.kind] : KIND_LABEL[p.kind].toLowerCase()})`}</option>
            ))}
          </select>
        </div>
        <button type="submit" className={secondaryButton}>Filtrar</button>
      </form>
      <DataTable
        caption="Mudanças nas regras de compartilhamento"
        headers={["Quando", "Quem", "Parceiro", "Instituição", "Antes", "Depois"]}
        empty={
          <p>
            Nenhuma mudança registrada{query.parceiro ? " para este parceiro" : ""}. Quando alguém definir o que uma aplicação recebe, em
            “Aplicativos e dados”, a mudança aparece aqui.
          </p>
        }
        rows={result.items.map((r) => ({
          key: r.id,
          cells: [
            formatDateTime(r.at),
            r.actorName ?? "—",
            <span key="p">
              {r.partner.name || KIND_LABEL[r.partner.kind]}
              {r.partner.deleted && <span className="ml-1 text-xs font-medium text-amber-800">({DELETED_LABEL[r.partner.kind]})</span>}
              <span className="block text-xs text-slate-500">{KIND_LABEL[r.partner.kind]}</span>
            </span>,
            r.institutionName,
            <Change key="b" change={r.change} side="before" partnerKind={r.partner.kind} />,
            <Change key="a" change={r.change} side="after" partnerKind={r.partner.kind} />,
          ],
        }))}
      />
      <Pagination basePath={basePath} params={{ parceiro: query.parceiro }} page={result.page} pageCount={result.pageCount} total={result.total} noun={["mudança", "mudanças"]} />
    </section>
  );
}
