import { AppError } from "@/lib/errors";
import { db } from "@/lib/server/db/database";
import { ZIdSchema } from "@/lib/validations/developer";
import { readBatch, sendBatch } from "./deliver-next-batch";
import { findMemberEndpoint } from "./find-member-endpoint";
import { throttleManualSend } from "./throttle-manual-send";
import type { TSendResult } from "./send-webhook";
import type { TLookupAll } from "@/lib/server/developer/launch-test/resolve-launch-target";

/**
 * "Send again": the batch of a past attempt re-read from the feed (same start, same size, so the
 * same events and the same webhook-id) and sent now. The cursor does not move: the worker's own
 * deliveries go on as before, so a receiver sees this batch once more, under the id it already has.
 */
export async function replayWebhookAttempt(options: { actorPersonId: string; applicationId: string; attemptId: string; allowPrivateNetwork?: boolean; lookup?: TLookupAll }): Promise<TSendResult> {
  const notFound = new AppError("not_found", "Tentativa não encontrada.");
  if (!ZIdSchema.safeParse(options.attemptId).success) throw notFound;
  const attempt = await db().webhookAttempt.findUnique({ where: { id: options.attemptId } });
  if (!attempt) throw notFound;
  const endpoint = await findMemberEndpoint({ personId: options.actorPersonId, applicationId: options.applicationId, endpointId: attempt.endpointId });
  if (!attempt.institutionId || attempt.eventCount === 0 || !attempt.toPosition) throw new AppError("bad_request", "Só entregas de eventos podem ser enviadas de novo; envie um novo evento de teste.");
  await throttleManualSend(options.actorPersonId);
  const page = await readBatch(endpoint, attempt.institutionId, attempt.fromPosition, attempt.eventCount);
  if (page.eventCount === 0) throw new AppError("bad_request", "Estes eventos não estão mais no feed desta aplicação.");
  return sendBatch(endpoint, attempt.institutionId, attempt.fromPosition, page, "replay", {
    worker: "manual",
    ...(options.allowPrivateNetwork !== undefined ? { allowPrivateNetwork: options.allowPrivateNetwork } : {}),
    ...(options.lookup ? { lookup: options.lookup } : {}),
  });
}
