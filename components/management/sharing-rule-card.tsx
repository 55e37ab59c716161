import Link from "@/components/link";
import type { ReactNode } from "react";
import { ActionForm, type TFormAction } from "@/components/management/action-form";
import { ATTRIBUTE_LABEL, formatDateTime, RULE_LABEL } from "@/components/management/labels";
import { card, secondaryButton } from "@/components/management/styles";
import { ROLE_LABEL } from "@/lib/labels";
import type { TAttributeRules, TRoleRules } from "@/lib/server/management/sharing-rules";
import { PROFILE_ROLES, type TPersonalAttribute } from "@/lib/validations/data-api";
import { ATTRIBUTE_RULES, roleModeField, roleRuleField } from "@/lib/validations/management";

/**
 * One partner's sharing rule at an institution (an application on /aplicativos, a tool on
 * /ferramentas): its name, status and preview link, and the form choosing, per attribute,
 * shared, anonymized or not shared, or to inherit the nearest ancestor's rule; and, per role, to
 * follow that rule or give the role its own (docs/decisions/015-sharing-rules-per-role.md). An
 * application's card also turns OneRoster 1.2 on or off with the rule (ADR 039).
 */
export type TSharingRuleState = {
  own: TAttributeRules | null;
  ownRoles: TRoleRules;
  ownOneRoster?: boolean;
  inherited: { institutionName: string; rules: TAttributeRules; roles: TRoleRules; oneRoster?: boolean } | null;
  ownUpdatedAt: Date | null;
};

/** The OneRoster checkbox's field: one option, sent as oneRoster=1 when checked (lib/validations/management.ts). */
const ONEROSTER_OPTION = { value: "1", label: "OneRoster 1.2 (API de roster padrão)" };

export function SharingRuleCard(props: {
  title: string;
  subtitle: ReactNode;
  status: string;
  statusTestId: string;
  previewHref: string;
  previewLabel: string;
  action: TFormAction;
  /** The partner's id field, and any fixed values the form sends. */
  hidden: Record<string, string>;
  attributes: readonly TPersonalAttribute[];
  /** The institution's own rule and the one it inherits (a row of the access listings). */
  rule: TSharingRuleState;
  /** What "inherit" means when no ancestor has a rule. */
  noInheritedLabel: string;
  /** Offer the OneRoster 1.2 checkbox (applications). */
  oneRoster?: boolean;
}) {
  const { own, ownRoles, inherited, ownUpdatedAt } = props.rule;
  const currentOneRoster = own ? props.rule.ownOneRoster === true : inherited?.oneRoster === true;
  const current = own ?? inherited?.rules;
  const currentRoles = own ? ownRoles : (inherited?.roles ?? {});
  const overridden = PROFILE_ROLES.filter((r) => currentRoles[r]);
  const ownMode = { field: "mode", in: ["propria"] };
  return (
    <li className={card}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h3 className="font-semibold">{props.title}</h3>
          <p className="text-sm text-slate-600">{props.subtitle}</p>
          <p className="mt-1 text-sm" data-testid={props.statusTestId}>{props.status}</p>
          {overridden.length > 0 && <p className="text-sm text-slate-600">Regra própria para: {overridden.map((r) => ROLE_LABEL[r]).join(", ")}</p>}
        </div>
        <Link href={props.previewHref} className={secondaryButton}>{props.previewLabel}</Link>
      </div>
      <div className="mt-4">
        <ActionForm
          action={props.action}
          ariaLabel={`Regras de ${props.title}`}
          submitLabel="Salvar regras"
          hidden={props.hidden}
          fields={[
            {
              name: "mode",
              label: "Regras",
              type: "radio",
              defaultValue: own ? "propria" : "herdar",
              options: [
                { value: "propria", label: "Configuração própria" },
                { value: "herdar", label: inherited ? `Herdar de ${inherited.institutionName}` : props.noInheritedLabel },
              ],
            },
            ...props.attributes.map((a) => ({
              name: a,
              label: ATTRIBUTE_LABEL[a],
              type: "radio" as const,
              defaultValue: current?.[a] ?? "nao_compartilhado",
              options: ATTRIBUTE_RULES.map((r) => ({ value: r, label: RULE_LABEL[r] })),
              showWhen: ownMode,
            })),
            ...(props.oneRoster
              ? [
                  {
                    name: "oneRoster",
                    label: "API de roster",
                    type: "checkboxes" as const,
                    defaultValue: currentOneRoster ? [ONEROSTER_OPTION.value] : [],
                    options: [ONEROSTER_OPTION],
                    hint: "A aplicação também lê escolas, turmas, pessoas e matrículas pela API OneRoster 1.2, com as mesmas regras de atributos acima. Vale para as unidades abaixo que não têm regra própria.",
                    showWhen: ownMode,
                  },
                ]
              : []),
            ...PROFILE_ROLES.flatMap((role, index) => [
              {
                name: roleModeField(role),
                label: `Para o perfil ${ROLE_LABEL[role]}`,
                type: "radio" as const,
                defaultValue: currentRoles[role] ? "propria" : "geral",
                options: [
                  { value: "geral", label: "Seguir as regras acima" },
                  { value: "propria", label: `Regra própria para ${ROLE_LABEL[role]}` },
                ],
                hint:
                  index === 0
                    ? "Um perfil pode ter regra diferente: por exemplo, compartilhar o e-mail de professores e não o de alunos. Cada registro segue a regra do perfil da pessoa."
                    : undefined,
                showWhen: ownMode,
              },
              ...props.attributes.map((a) => ({
                name: roleRuleField(role, a),
                label: `${ROLE_LABEL[role]} · ${ATTRIBUTE_LABEL[a]}`,
                type: "radio" as const,
                defaultValue: currentRoles[role]?.[a] ?? current?.[a] ?? "nao_compartilhado",
                options: ATTRIBUTE_RULES.map((r) => ({ value: r, label: RULE_LABEL[r] })),
                showWhen: [ownMode, { field: roleModeField(role), in: ["propria"] }],
              })),
            ]),
          ]}
        />
      </div>
      {ownUpdatedAt && <p className="mt-2 text-xs text-slate-500">Última alteração: {formatDateTime(ownUpdatedAt)}</p>}
    </li>
  );
}
