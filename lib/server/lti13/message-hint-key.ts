import { createHmac } from "node:crypto";
import { hubSecret } from "@/lib/server/crypto/hub-secret";

let cached: { secret: string; key: Buffer } | undefined;

/** The key lti_message_hint is sealed with: derived from the hub secret, never the secret itself. */
export function messageHintKey(): Buffer {
  const secret = hubSecret();
  if (cached?.secret !== secret) cached = { secret, key: createHmac("sha256", secret).update("hub/lti13/message-hint/v1").digest() };
  return cached.key;
}
