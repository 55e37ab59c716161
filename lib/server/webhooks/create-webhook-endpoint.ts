import { AppError } from "@/lib/errors";
import { db } from "@/lib/server/db/database";
import { transaction } from "@/lib/server/db/transaction";
import { recordAudit } from "@/lib/server/audit/record-audit";
import { findMemberApplication } from "@/lib/server/developer/find-member-application";
import { MAX_WEBHOOK_ENDPOINTS, ZWebhookEndpointSchema } from "@/lib/validations/webhooks";
import type { TLookupAll } from "@/lib/server/developer/launch-test/resolve-launch-target";
import { newWebhookSecret, WEBHOOK_REFUSED, webhookTargetAllowed } from "./send-webhook";
import { syncWebhookCursors } from "./sync-webhook-cursors";

export interface CreateWebhookEndpointOptions {
  actorPersonId: string;
  applicationId: string;
  /** The form's fields (ZWebhookEndpointSchema's input): url, description, entities, kinds. */
  fields: Record<string, unknown>;
  allowPrivateNetwork?: boolean;
  lookup?: TLookupAll;
}

/**
 * A webhook endpoint for one of the person's applications. The address must pass the SSRF guard
 * now (and passes it again on every send); the signing secret is returned once, and kept sealed.
 */
export async function createWebhookEndpoint(options: CreateWebhookEndpointOptions): Promise<{ endpointId: string; secret: string }> {
  const application = await findMemberApplication({ personId: options.actorPersonId, applicationId: options.applicationId });
  const input = ZWebhookEndpointSchema.parse({ ...options.fields, applicationId: application.id });
  if (!(await webhookTargetAllowed(input.url, options))) throw new AppError("bad_request", "Revise os campos destacados.", { url: WEBHOOK_REFUSED });
  const count = await db().webhookEndpoint.count({ where: { applicationId: application.id } });
  if (count >= MAX_WEBHOOK_ENDPOINTS) throw new AppError("bad_request", `Cada aplicação pode ter até ${MAX_WEBHOOK_ENDPOINTS} endpoints de webhook.`);
  const { secret, sealed } = newWebhookSecret();
  const endpoint = await transaction(async (tx) => {
    const created = await tx.webhookEndpoint.create({
      data: { applicationId: application.id, url: input.url, description: input.description, entities: input.entities, kinds: input.kinds, secretSealed: sealed },
    });
    await recordAudit(tx, {
      actorPersonId: options.actorPersonId,
      action: "webhook.create",
      targetType: "webhook_endpoint",
      targetId: created.id,
      edtechId: application.edtechId,
      details: { applicationId: application.id, url: input.url, entities: input.entities, kinds: input.kinds },
    });
    return created;
  });
  await syncWebhookCursors({ endpointId: endpoint.id });
  return { endpointId: endpoint.id, secret };
}
