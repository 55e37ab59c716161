import { randomUUID } from "node:crypto";
import type { TLookupAll } from "@/lib/server/developer/launch-test/resolve-launch-target";
import { sendAndRecord } from "./deliver-next-batch";
import { findMemberEndpoint } from "./find-member-endpoint";
import type { TSendResult } from "./send-webhook";
import { throttleManualSend } from "./throttle-manual-send";

/** "Send a test event": a signed `webhook.teste` message with no school data, to check the receiver and its verification. */
export async function sendTestWebhook(options: { actorPersonId: string; applicationId: string; endpointId: string; allowPrivateNetwork?: boolean; lookup?: TLookupAll }): Promise<TSendResult> {
  const endpoint = await findMemberEndpoint({ personId: options.actorPersonId, applicationId: options.applicationId, endpointId: options.endpointId });
  await throttleManualSend(options.actorPersonId);
  const payload = JSON.stringify({ type: "webhook.teste", timestamp: new Date().toISOString(), data: { mensagem: "Evento de teste do Hub: a assinatura confere se o seu receptor aceitou." } });
  return sendAndRecord({
    endpoint,
    institutionId: null,
    messageId: `msg_test_${randomUUID()}`,
    payload,
    trigger: "test",
    range: { from: null, to: null, eventCount: 0 },
    settings: {
      worker: "manual",
      ...(options.allowPrivateNetwork !== undefined ? { allowPrivateNetwork: options.allowPrivateNetwork } : {}),
      ...(options.lookup ? { lookup: options.lookup } : {}),
    },
  });
}
