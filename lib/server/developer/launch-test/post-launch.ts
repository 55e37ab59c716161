import type { LookupAddress, LookupOptions } from "node:dns";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import type { TLaunchTarget } from "./resolve-launch-target";

export type TPostResult = { status: number; location: string | null; setCookies?: string[] } | { status: null; error: string };

export interface PostLaunchOptions {
  target: TLaunchTarget;
  fields: ReadonlyArray<[string, string]>;
  timeoutMs: number;
  /** A Cookie header to send (the LTI 1.3 tester carries the tool's own state cookie back). */
  cookie?: string;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A lookup that answers with the addresses resolveLaunchTarget already checked, so the
 * connection cannot be pointed elsewhere by a second DNS answer (DNS rebinding).
 */
function pinnedLookup(addresses: LookupAddress[]) {
  return (_hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    const usable = options.family ? addresses.filter((a) => a.family === options.family) : addresses;
    const first = usable[0];
    if (!first) {
      callback(Object.assign(new Error("no checked address for this family"), { code: "ENOTFOUND" }), []);
      return;
    }
    if (options.all) callback(null, usable);
    else callback(null, first.address, first.family);
  };
}

/**
 * The one answer for a launch that got no HTTP answer: refused, reset, timed out, TLS or any other
 * network failure read the same, so the tester is not a port or TLS scanner.
 */
export const NO_ANSWER = "A ferramenta não respondeu: sem conexão, sem resposta em tempo ou falha de TLS.";

/**
 * POSTs one form-encoded launch from the hub's server and reports the status only (postToTarget).
 */
export function postLaunch({ target, fields, timeoutMs, cookie }: PostLaunchOptions): Promise<TPostResult> {
  const body = new URLSearchParams(fields.map(([name, value]) => [name, value])).toString();
  return postToTarget({
    target,
    body,
    timeoutMs,
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      Accept: "text/html,*/*;q=0.8",
      "User-Agent": "HubEducacional-TestadorDeLancamento/1.0",
      ...(cookie ? { Cookie: cookie } : {}),
    },
  });
}

/**
 * One request to a target resolvePinnedTarget checked, connecting only to its checked addresses
 * (node:http never follows redirects). `onResponse` settles the answer; any network failure, or
 * the time running out, settles it as NO_ANSWER. Settled once, whatever comes after.
 */
function requestTarget<T>(options: {
  target: TLaunchTarget;
  method: "GET" | "POST";
  headers: Record<string, string | number>;
  body?: string | Buffer;
  signal: AbortSignal;
  onResponse: (response: IncomingMessage, settle: (result: T | { status: null; error: string }) => void) => void;
}): Promise<T | { status: null; error: string }> {
  const { target } = options;
  const request = target.url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (result: T | { status: null; error: string }) => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    const req = request(
      {
        method: options.method,
        host: target.hostname,
        port: target.url.port || undefined,
        path: `${target.url.pathname}${target.url.search}`,
        headers: options.headers,
        lookup: pinnedLookup(target.addresses),
        agent: false,
        signal: options.signal,
      },
      (response) => options.onResponse(response, settle),
    );
    req.on("error", () => settle({ status: null, error: NO_ANSWER }));
    req.end(options.body);
  });
}

/**
 * POSTs `body` to a checked target and reports the status only: a 3xx is reported as it is; the
 * body of the answer is never read.
 */
export function postToTarget({ target, body, headers, timeoutMs }: { target: TLaunchTarget; body: string | Buffer; headers: Record<string, string>; timeoutMs: number }): Promise<TPostResult> {
  return requestTarget<TPostResult>({
    target,
    method: "POST",
    headers: { ...headers, "Content-Length": Buffer.byteLength(body) },
    body,
    signal: AbortSignal.timeout(timeoutMs),
    onResponse: (response, settle) => {
      settle({
        status: response.statusCode ?? 0,
        location: typeof response.headers.location === "string" ? response.headers.location : null,
        setCookies: response.headers["set-cookie"] ?? [],
      });
      // Only the status matters; dropping the socket keeps a huge or endless body from costing anything.
      response.destroy();
    },
  });
}

export type TGetResult = { status: number; body: Buffer; contentType: string | null } | { status: null; error: string };

/**
 * Sends a request (GET by default; a POST with `body`: an upstream token request) to a checked
 * target (a tool's JWKS, an upstream identity provider) and reads at most `maxBytes` of the answer:
 * a longer one is cut off and reported as no answer. `signal` (the caller's timeout) aborts it too.
 */
export function fetchFromTarget({
  target,
  headers,
  timeoutMs,
  maxBytes,
  signal,
  method = "GET",
  body,
}: {
  target: TLaunchTarget;
  headers: Record<string, string>;
  timeoutMs: number;
  maxBytes: number;
  signal?: AbortSignal;
  method?: "GET" | "POST";
  body?: string;
}): Promise<TGetResult> {
  return requestTarget<TGetResult>({
    target,
    method,
    headers: body === undefined ? headers : { ...headers, "Content-Length": Buffer.byteLength(body) },
    ...(body === undefined ? {} : { body }),
    signal: signal ? AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) : AbortSignal.timeout(timeoutMs),
    onResponse: (response, settle) => {
      const chunks: Buffer[] = [];
      let size = 0;
      response.on("data", (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) {
          settle({ status: null, error: NO_ANSWER });
          response.destroy();
          return;
        }
        chunks.push(chunk);
      });
      response.on("end", () => settle({ status: response.statusCode ?? 0, body: Buffer.concat(chunks), contentType: response.headers["content-type"] ?? null }));
      response.on("error", () => settle({ status: null, error: NO_ANSWER }));
    },
  });
}
