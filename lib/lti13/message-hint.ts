/**
 * `lti_message_hint`: the platform's own opaque value that comes back in the authentication
 * request (LTI Core 1.3 §4.1.1). Here it is an HMAC-SHA256-sealed statement "this profile asked to
 * open this placement (or this class's content picker) at this time", so the authorization
 * endpoint needs no stored state and a tool cannot forge or widen it.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";

const ZHintSchema = z.object({
  /** Placement id (resource link) or class id (deep linking). */
  t: z.string().min(1),
  /** Profile id. */
  p: z.string().min(1),
  /** Client id it was issued for. */
  c: z.string().min(1),
  m: z.enum(["LtiResourceLinkRequest", "LtiDeepLinkingRequest"]),
  /** Expiry, Unix seconds. */
  e: z.number().int(),
});

export type TMessageHint = z.infer<typeof ZHintSchema>;

/** A hint older than this is refused: the login round trip takes a second, not minutes. */
export const MESSAGE_HINT_SECONDS = 300;

export function sealMessageHint(hint: TMessageHint, key: Buffer): string {
  const body = Buffer.from(JSON.stringify(hint), "utf8").toString("base64url");
  return `${body}.${createHmac("sha256", key).update(body).digest("base64url")}`;
}

/** The hint, or null when it was not sealed with `key`, is malformed or has expired. */
export function openMessageHint(text: string, key: Buffer, nowSeconds: number): TMessageHint | null {
  const [body, mac, extra] = text.split(".");
  if (!body || !mac || extra !== undefined) return null;
  const expected = createHmac("sha256", key).update(body).digest();
  const given = Buffer.from(mac, "base64url");
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(body, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const hint = ZHintSchema.safeParse(parsed);
  return hint.success && hint.data.e > nowSeconds ? hint.data : null;
}
