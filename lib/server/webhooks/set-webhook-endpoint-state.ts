import { transaction } from "@/lib/server/db/transaction";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { findMemberEndpoint } from "./find-member-endpoint";
import { syncWebhookCursors } from "./sync-webhook-cursors";

/**
 * "Reactivate" an endpoint the hub disabled (its retries start again from the batch that failed,
 * at once) or "delete" it (its cursors and attempt log go with it).
 */
export async function setWebhookEndpointState(options: { actorPersonId: string; applicationId: string; endpointId: string; state: "enabled" | "deleted" }): Promise<void> {
  const endpoint = await findMemberEndpoint({ personId: options.actorPersonId, applicationId: options.applicationId, endpointId: options.endpointId });
  await transaction(async (tx) => {
    if (options.state === "deleted") {
      await tx.webhookEndpoint.delete({ where: { id: endpoint.endpointId } });
    } else {
      await tx.webhookEndpoint.update({ where: { id: endpoint.endpointId }, data: { disabledAt: null, disabledReason: null } });
      await tx.webhookCursor.updateMany({ where: { endpointId: endpoint.endpointId }, data: { failures: 0, failingSince: null, dueAt: new Date() } });
    }
    await recordAudit(tx, {
      actorPersonId: options.actorPersonId,
      action: options.state === "deleted" ? "webhook.delete" : "webhook.enable",
      targetType: "webhook_endpoint",
      targetId: endpoint.endpointId,
      edtechId: endpoint.edtechId,
      details: { applicationId: endpoint.applicationId, url: endpoint.url },
    });
  });
  if (options.state === "enabled") await syncWebhookCursors({ endpointId: endpoint.endpointId });
}
