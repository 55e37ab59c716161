/** HMAC-SHA1 signature method (RFC 5849 §3.4.2). */
import { createHmac } from "node:crypto";
import { percentEncode } from "./percent-encode";

/**
 * The key is enc(consumerSecret)&enc(tokenSecret). Encoding each half keeps a
 * secret containing "&" from shifting bytes into the other half. LTI 1.0
 * launches have no token, hence the empty default.
 */
export function hmacSha1Signature(baseString: string, consumerSecret: string, tokenSecret = ""): string {
  const key = `${percentEncode(consumerSecret)}&${percentEncode(tokenSecret)}`;
  return createHmac("sha1", key).update(baseString, "utf8").digest("base64");
}
