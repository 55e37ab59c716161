import { db } from "@/lib/server/db/database";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";
import { linkedEdtechsUp, ruleStateAt, type TRuleState } from "./sharing-rules";

export interface TApplicationAccessRow extends TRuleState {
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
  const { chain, edtechIds } = await linkedEdtechsUp(institution.id);
  const applications = await db().oAuthApplication.findMany({
    where: { edtechId: { in: edtechIds } },
    include: { edtech: { select: { name: true } }, access: { where: { institutionId: { in: chain.map((c) => c.id) } } } },
    orderBy: [{ edtech: { name: "asc" } }, { name: "asc" }],
  });
  return applications.map((app) => ({
    applicationId: app.id,
    applicationName: app.name,
    description: app.description,
    edtechId: app.edtechId,
    edtechName: app.edtech.name,
    ...ruleStateAt(chain, app.access),
  }));
}
