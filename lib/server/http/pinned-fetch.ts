import type { FetchImplementation } from "jose";
import { fetchFromTarget } from "@/lib/server/developer/launch-test/post-launch";
import { resolvePinnedTarget, type TLookupAll } from "@/lib/server/developer/launch-test/resolve-launch-target";

export interface TPinnedFetchOptions {
  /** DEMO_TOOL=1 set by the operator: loopback and private addresses are allowed. */
  allowPrivateNetwork: boolean;
  /** The longest answer read; a longer one fails like no answer. */
  maxBytes: number;
  timeoutMs: number;
  lookup?: TLookupAll;
}

/**
 * A fetch for jose and openid-client (their `customFetch`) through the SSRF guard of every request
 * the hub sends to an address somebody typed (resolvePinnedTarget): the host is resolved and
 * checked at every request and the connection goes only to the checked addresses, so a second DNS
 * answer cannot point it inside (DNS rebinding). Redirects are never followed (node:http).
 */
/** What jose's and openid-client's fetches pass: both shapes fit it. */
type TFetchInit = { method?: string; headers?: HeadersInit; body?: unknown; signal?: AbortSignal | null };

export function pinnedFetch(options: TPinnedFetchOptions): FetchImplementation & ((url: string, init: TFetchInit) => Promise<Response>) {
  return async (url: string, init: TFetchInit) => {
    const target = await resolvePinnedTarget({ url: new URL(url), allowPrivateNetwork: options.allowPrivateNetwork, ...(options.lookup ? { lookup: options.lookup } : {}) });
    if (!target) throw new Error("The address is not public");
    const method = init.method?.toUpperCase() === "POST" ? "POST" : "GET";
    const payload = init.body === undefined || init.body === null ? undefined : String(init.body);
    const result = await fetchFromTarget({
      target,
      headers: Object.fromEntries(new Headers(init.headers)),
      timeoutMs: options.timeoutMs,
      maxBytes: options.maxBytes,
      method,
      ...(payload === undefined ? {} : { body: payload }),
      ...(init.signal ? { signal: init.signal } : {}),
    });
    if (result.status === null) throw new Error(result.error);
    // A Response cannot carry a status outside 200–599, nor a body with 204, 205 or 304.
    if (result.status < 200 || result.status > 599) throw new Error(`Unusable HTTP status ${result.status}`);
    const body = [204, 205, 304].includes(result.status) ? null : new Uint8Array(result.body);
    return new Response(body, { status: result.status, headers: { "content-type": result.contentType ?? "application/octet-stream" } });
  };
}
