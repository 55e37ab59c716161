import { db } from "@/lib/db";
import { PERSONAL_ATTRIBUTES, type TPersonalAttribute } from "@/lib/validations/data-api";
import type { TAttributeRule } from "@/lib/validations/management";
import { listAncestors } from "./list-ancestors";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";

export type TAttributeRules = Record<TPersonalAttribute, TAttributeRule>;

export interface TApplicationAccessRow {
  applicationId: string;
  applicationName: string;
  description: string;
  edtechId: string;
  edtechName: string;
  /** This institution's own setting, or null when it has none. */
  own: TAttributeRules | null;
  /** The nearest ancestor's setting, which applies when there is no own one. */
  inherited: { institutionId: string; institutionName: string; rules: TAttributeRules } | null;
  ownUpdatedAt: Date | null;
}

/** allowed/anonymized arrays → one rule per attribute (unknown names in old rows are ignored). */
export function toRules(allowed: string[], anonymized: string[]): TAttributeRules {
  return Object.fromEntries(
    PERSONAL_ATTRIBUTES.map((a) => [a, !allowed.includes(a) ? "nao_compartilhado" : anonymized.includes(a) ? "anonimizado" : "permitido"]),
  ) as TAttributeRules;
}

/**
 * The applications an institution can enable: those of the edtechs that have a contract with it
 * or an ancestor. For each, its own attribute rules and the inherited ones.
 */
export async function listApplicationAccess(options: { scope: TManagerScope; institutionId: string }): Promise<TApplicationAccessRow[]> {
  const institution = requireInReach(options);
  const chain = await listAncestors({ institutionId: institution.id });
  const chainIds = chain.map((c) => c.id);
  const links = await db().edtechLink.findMany({ where: { institutionId: { in: chainIds } }, select: { edtechId: true } });
  const applications = await db().oAuthApplication.findMany({
    where: { edtechId: { in: [...new Set(links.map((l) => l.edtechId))] } },
    include: { edtech: { select: { name: true } }, access: { where: { institutionId: { in: chainIds } } } },
    orderBy: [{ edtech: { name: "asc" } }, { name: "asc" }],
  });
  return applications.map((app) => {
    const own = app.access.find((a) => a.institutionId === institution.id) ?? null;
    const nearest = chain.slice(1).map((c) => ({ c, row: app.access.find((a) => a.institutionId === c.id) })).find((x) => x.row);
    return {
      applicationId: app.id,
      applicationName: app.name,
      description: app.description,
      edtechId: app.edtechId,
      edtechName: app.edtech.name,
      own: own ? toRules(own.allowedAttributes, own.anonymizedAttributes) : null,
      inherited: nearest?.row
        ? { institutionId: nearest.c.id, institutionName: nearest.c.name, rules: toRules(nearest.row.allowedAttributes, nearest.row.anonymizedAttributes) }
        : null,
      ownUpdatedAt: own?.updatedAt ?? null,
    };
  });
}
