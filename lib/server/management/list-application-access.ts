import { db } from "@/lib/server/db/database";
import { effectiveAccess } from "@/lib/server/institution-tree/effective-access";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";
import { linkedEdtechsUp, ruleStateAt, type TRuleState } from "./sharing-rules";

export interface TApplicationAccessRow extends TRuleState {
  /** Whether the application reads this institution's data (the one access rule, effectiveAccess). */
  enabled: boolean;
  /** Whether it also reads it through OneRoster 1.2: enabled, and the rule in force (own or inherited) turns OneRoster on. */
  oneRosterEnabled: boolean;
  applicationId: string;
  applicationName: string;
  description: string;
  edtechId: string;
  edtechName: string;
}

/**
 * The applications an institution can enable: those of the edtechs that have a contract with it
 * or an ancestor. For each, its own attribute rules and the inherited ones.
 */
export async function listApplicationAccess(options: { scope: TManagerScope; institutionId: string }): Promise<TApplicationAccessRow[]> {
  const institution = requireInReach(options);
  const { chain, links, edtechIds } = await linkedEdtechsUp(institution.id);
  const applications = await db().oAuthApplication.findMany({
    where: { edtechId: { in: edtechIds } },
    include: { edtech: { select: { name: true } }, access: { where: { institutionId: { in: chain.map((c) => c.id) } } } },
    orderBy: [{ edtech: { name: "asc" } }, { name: "asc" }],
  });
  const levelsOf = (app: (typeof applications)[number]) =>
    chain.map((c) => ({
      linked: links.some((l) => l.institutionId === c.id && l.edtechId === app.edtechId),
      rule: app.access.find((a) => a.institutionId === c.id) ?? null,
    }));
  return applications.map((app) => {
    const enabled = effectiveAccess(levelsOf(app), "application").enabled;
    const rule = ruleStateAt(chain, app.access);
    return {
      enabled,
      oneRosterEnabled: enabled && (rule.own ? rule.ownOneRoster : rule.inherited?.oneRoster === true),
      applicationId: app.id,
      applicationName: app.name,
      description: app.description,
      edtechId: app.edtechId,
      edtechName: app.edtech.name,
      ...rule,
    };
  });
}
