// One signed POST to a webhook endpoint (Standard Webhooks: webhook-id, webhook-timestamp,
// webhook-signature = v1,base64(HMAC-SHA256(secret, id.timestamp.body))), through the launch
// tester's SSRF guard: the address resolved and checked on every send, the connection pinned to
// the checked addresses, no redirects followed, 5 s to answer. Only the status is read.
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { env } from "@/lib/env";
import { decryptSecret, encryptSecret } from "@/lib/server/crypto/secret-box";
import { postToTarget } from "@/lib/server/developer/launch-test/post-launch";
import { resolvePinnedTarget, type TLookupAll } from "@/lib/server/developer/launch-test/resolve-launch-target";

const SECRET_PURPOSE = "webhook-signing-secret";
export const WEBHOOK_TIMEOUT_MS = 5_000;

/** A new signing secret in the Standard Webhooks format (`whsec_` + base64 of 32 random bytes), and its sealed form. */
export function newWebhookSecret(): { secret: string; sealed: string } {
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  return { secret, sealed: encryptSecret(secret, SECRET_PURPOSE) };
}

export const WEBHOOK_REFUSED =
  "O Hub só envia webhooks para endereços públicos da internet, e este endereço não é um deles (ou o nome não foi encontrado). " +
  "Para receber numa máquina local ou na rede interna, o operador do Hub precisa iniciá-lo com DEMO_TOOL=1.";
export const WEBHOOK_NO_ANSWER = "Sem resposta: conexão recusada, tempo esgotado (5 s) ou falha de TLS.";

export interface TSendOptions {
  url: string;
  secretSealed: string;
  messageId: string;
  payload: string;
  /** Defaults to demo mode set explicitly (DEMO_TOOL=1), as the launch tester. */
  allowPrivateNetwork?: boolean;
  lookup?: TLookupAll;
  timeoutMs?: number;
}

export interface TSendResult {
  ok: boolean;
  /** The endpoint's HTTP status, or null when none came (refused address, no answer). */
  status: number | null;
  latencyMs: number;
  /** Why it failed, in words for the edtech (never the answer's body). */
  error: string | null;
}

/** Whether the address may receive webhooks now (the same check every send makes). */
export async function webhookTargetAllowed(url: string, options: Pick<TSendOptions, "allowPrivateNetwork" | "lookup"> = {}): Promise<boolean> {
  const allowPrivateNetwork = options.allowPrivateNetwork ?? env().DEMO_TOOL_EXPLICIT;
  return (await resolvePinnedTarget({ url: new URL(url), allowPrivateNetwork, ...(options.lookup ? { lookup: options.lookup } : {}) })) !== null;
}

export async function sendWebhook(options: TSendOptions): Promise<TSendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const allowPrivateNetwork = options.allowPrivateNetwork ?? env().DEMO_TOOL_EXPLICIT;
  const target = await resolvePinnedTarget({ url: new URL(options.url), allowPrivateNetwork, ...(options.lookup ? { lookup: options.lookup } : {}) });
  if (!target) return { ok: false, status: null, latencyMs: elapsed(), error: WEBHOOK_REFUSED };
  const timestamp = new Date();
  const signature = new Webhook(decryptSecret(options.secretSealed, SECRET_PURPOSE)).sign(options.messageId, timestamp, options.payload);
  const result = await postToTarget({
    target,
    body: options.payload,
    timeoutMs: options.timeoutMs ?? WEBHOOK_TIMEOUT_MS,
    headers: {
      "Content-Type": "application/json",
      "User-Agent": "HubEducacional-Webhooks/1.0",
      "webhook-id": options.messageId,
      "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
      "webhook-signature": signature,
    },
  });
  if (result.status === null) return { ok: false, status: null, latencyMs: elapsed(), error: WEBHOOK_NO_ANSWER };
  const ok = result.status >= 200 && result.status < 300;
  const error = ok ? null : result.status >= 300 && result.status < 400 ? `Redirecionamento (${result.status}) não é seguido.` : `Respondeu ${result.status}.`;
  return { ok, status: result.status, latencyMs: elapsed(), error };
}
