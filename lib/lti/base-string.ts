/**
 * Signature base string (RFC 5849 §3.4.1).
 *
 * The hub signs the launch URL it has on file; the tool verifies against the
 * URL the browser actually hit. Both sides parse with the WHATWG URL parser,
 * the same one browsers use to build the request, so the two agree on host
 * case, default ports and path escaping.
 */
import { percentEncode } from "./percent-encode";

export type ParamPair = [string, string];

const HTTP_PROTOCOLS: ReadonlySet<string> = new Set(["http:", "https:"]);

function parseHttpUrl(url: string): URL {
  const parsed = new URL(url);
  // §3.4.1.2 only defines base string URIs for http and https.
  if (!HTTP_PROTOCOLS.has(parsed.protocol)) {
    throw new TypeError(`OAuth 1.0 signing needs an http(s) URL, got ${parsed.protocol}`);
  }
  return parsed;
}

/** §3.4.1.2: scheme://host[:non-default-port]/path, no userinfo, query or fragment. */
export function normalizeBaseUrl(url: string): string {
  const parsed = parseHttpUrl(url);
  // The WHATWG parser already lowercases scheme and host, reports the
  // scheme's default port (80/443) as "", and gives "/" for an empty http(s)
  // path: exactly the §3.4.1.2 rules, and exactly what the browser will send.
  const port = parsed.port === "" ? "" : `:${parsed.port}`;
  return `${parsed.protocol}//${parsed.hostname}${port}${parsed.pathname}`;
}

/**
 * §3.4.1.3.1: query parameters of the URL plus the (already decoded) form
 * fields, in request order, without oauth_signature. Duplicates are kept:
 * every occurrence is signed.
 */
export function collectParameters(url: string, formFields: ReadonlyArray<ParamPair>): ParamPair[] {
  // URLSearchParams decodes as application/x-www-form-urlencoded ("+" is a space).
  const query: ParamPair[] = [...parseHttpUrl(url).searchParams.entries()];
  return [...query, ...formFields].filter(([name]) => name !== "oauth_signature");
}

function compareAscii(a: string, b: string): number {
  // Encoded strings are pure ASCII, so UTF-16 order equals byte order here.
  return a < b ? -1 : a > b ? 1 : 0;
}

/** §3.4.1.3.2: encode, sort by name then value (byte order), join with & and =. */
export function normalizeParameters(params: ReadonlyArray<ParamPair>): string {
  return params
    .map(([name, value]): ParamPair => [percentEncode(name), percentEncode(value)])
    .sort(([nameA, valueA], [nameB, valueB]) => compareAscii(nameA, nameB) || compareAscii(valueA, valueB))
    .map(([name, value]) => `${name}=${value}`)
    .join("&");
}

/** §3.4.1.1: METHOD&enc(base URL)&enc(normalized parameters). */
export function signatureBaseString(method: string, url: string, formFields: ReadonlyArray<ParamPair>): string {
  return [
    percentEncode(method.toUpperCase()),
    percentEncode(normalizeBaseUrl(url)),
    percentEncode(normalizeParameters(collectParameters(url, formFields))),
  ].join("&");
}
