import { transaction } from "@/lib/server/db/transaction";
import { toDeveloperTool, type TDeveloperTool } from "./developer-tool";
import { findMemberTool, MEMBER_TOOL_SELECT } from "./find-member-tool";
import { recordAudit } from "@/lib/server/audit/record-audit";

export interface SetToolStatusOptions {
  actorPersonId: string;
  toolId: string;
  status: "active" | "withdrawn";
}

/**
 * Withdraws a tool from the gallery (or brings it back). Withdrawing keeps the row, its
 * placements and its sharing rules, so reactivating restores every school's setup; the gallery
 * and the launch only ever use active tools.
 */
export async function setToolStatus({ actorPersonId, toolId, status }: SetToolStatusOptions): Promise<TDeveloperTool> {
  await findMemberTool({ personId: actorPersonId, toolId });
  const row = await transaction(async (tx) => {
    const current = await findMemberTool({ personId: actorPersonId, toolId, tx });
    const tool = await tx.tool.update({ where: { id: toolId }, data: { status }, select: MEMBER_TOOL_SELECT });
    if (current.status !== status) {
      await recordAudit(tx, {
        actorPersonId,
        action: status === "withdrawn" ? "tool.withdraw" : "tool.reactivate",
        targetType: "tool",
        targetId: toolId,
        edtechId: current.edtechId,
      });
    }
    return tool;
  });
  return toDeveloperTool(row);
}
