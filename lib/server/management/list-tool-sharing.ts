import { db } from "@/lib/server/db/database";
import { requireInReach } from "./require-in-reach";
import type { TManagerScope } from "./resolve-manager-scope";
import { linkedEdtechsUp, ruleStateAt, type TRuleState } from "./sharing-rules";

export interface TToolSharingRow extends TRuleState {
  toolId: string;
  toolTitle: string;
  edtechId: string;
  edtechName: string;
  /** Whether the tool is placed at this institution (its people can open it here). */
  placedHere: boolean;
}

/**
 * The tools whose launches an institution governs: those of the edtechs with a contract here or
 * above (as listApplicationAccess for applications). For each, its own rule and the inherited one.
 */
export async function listToolSharing(options: { scope: TManagerScope; institutionId: string }): Promise<TToolSharingRow[]> {
  const institution = requireInReach(options);
  const { chain, edtechIds } = await linkedEdtechsUp(institution.id);
  const tools = await db().tool.findMany({
    where: { edtechId: { in: edtechIds } },
    select: {
      id: true,
      title: true,
      edtechId: true,
      edtech: { select: { name: true } },
      toolSharing: { where: { institutionId: { in: chain.map((c) => c.id) } } },
      placements: { where: { institutionId: institution.id }, select: { id: true }, take: 1 },
    },
    orderBy: [{ edtech: { name: "asc" } }, { title: "asc" }],
  });
  return tools.map((tool) => ({
    toolId: tool.id,
    toolTitle: tool.title,
    edtechId: tool.edtechId,
    edtechName: tool.edtech.name,
    placedHere: tool.placements.length > 0,
    ...ruleStateAt(chain, tool.toolSharing),
  }));
}
