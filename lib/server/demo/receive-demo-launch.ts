import { verifyLaunch, type VerifyResult } from "@/lib/lti/verify-launch";
import { mediaType } from "@/lib/server/http/media-type";
import { rememberNonce } from "@/lib/server/lti-nonces/remember-nonce";
import { findToolSecret } from "@/lib/server/tools/find-tool-secret";

export interface ReceiveDemoLaunchOptions {
  method: string;
  /** The public URL the browser posted to (HUB_BASE_URL + path + query), never a Host header. */
  url: string;
  contentType: string | null;
  body: string;
  /** Unix seconds; injectable for tests. */
  now?: () => number;
}

export interface ReceivedDemoLaunch {
  result: VerifyResult;
  /** Every parameter received (launch-URL query, then body), in order, duplicates kept. */
  received: Array<[string, string]>;
}

function formFields(contentType: string | null, body: string): Array<[string, string]> {
  // Only a form-encoded body carries launch fields (spec: tool launch endpoint); anything else
  // is read as empty, and the verifier then fails on the missing consumer key.
  if (mediaType(contentType) !== "application/x-www-form-urlencoded") return [];
  // URLSearchParams keeps order and duplicates and decodes "+" as a space, as the form encoding
  // requires; the verifier signs every occurrence.
  return [...new URLSearchParams(body).entries()];
}

/** The reference tool provider's check of one launch, with the hub's tools as its client list. */
export async function receiveDemoLaunch({ method, url, contentType, body, now }: ReceiveDemoLaunchOptions): Promise<ReceivedDemoLaunch> {
  const fields = formFields(contentType, body);
  const result = await verifyLaunch(
    { method, url, fields },
    {
      now: now ?? (() => Math.floor(Date.now() / 1000)),
      lookupSecret: (consumerKey) => findToolSecret({ consumerKey, endpointUrl: url }),
      rememberNonce: (consumerKey, nonce) => rememberNonce({ consumerKey, nonce }),
    },
  );
  let query: Array<[string, string]> = [];
  try {
    query = [...new URL(url).searchParams.entries()];
  } catch {
    // The verifier has already refused a bad URL.
  }
  return { result, received: [...query, ...fields] };
}
