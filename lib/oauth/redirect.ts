/**
 * Building the redirect back to the client (authorization responses and redirected errors).
 */

export type ResponseMode = "query" | "fragment";

/**
 * Percent-encodes one name=value pair with encodeURIComponent.
 * The spec states that `state` uses the encodeURIComponent convention, so a client decoding
 * with decodeURIComponent gets the exact string back. URLSearchParams would write spaces as
 * `+`, which decodeURIComponent leaves as a literal `+`.
 */
function encodePair(name: string, value: string): string {
  return `${encodeURIComponent(name)}=${encodeURIComponent(value)}`;
}

function encodeParams(params: Readonly<Record<string, string | undefined>>): string {
  return Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => encodePair(name, value))
    .join("&");
}

/**
 * RFC 6749 §3.1.2: the redirection endpoint URI MUST NOT include a fragment. A registered URI
 * should never carry one; if it does we drop it rather than emit two `#`.
 */
function withoutFragment(uri: string): string {
  const hash = uri.indexOf("#");
  return hash === -1 ? uri : uri.slice(0, hash);
}

/** Appends `extra` to the URI's own query, keeping the existing query verbatim. */
function appendQuery(uri: string, extra: string): string {
  if (!uri.includes("?")) return `${uri}?${extra}`;
  if (uri.endsWith("?") || uri.endsWith("&")) return `${uri}${extra}`;
  return `${uri}&${extra}`;
}

/**
 * The Location for a redirect to the client.
 *
 * - RFC 6749 §3.1.2: the redirect URI's own query component MUST be retained when adding
 *   parameters, so we never parse and re-serialise it (that could re-encode its bytes).
 * - RFC 6749 §4.1.2 puts code responses in the query; §4.2.2 puts implicit tokens in the
 *   fragment (OAuth 2.0 Multiple Response Type Encoding Practices, `response_mode`).
 * - Parameters whose value is undefined are left out.
 */
export function buildRedirect(
  redirectUri: string,
  params: Readonly<Record<string, string | undefined>>,
  mode: ResponseMode,
): string {
  const base = withoutFragment(redirectUri);
  const encoded = encodeParams(params);
  if (encoded === "") return base;
  return mode === "query" ? appendQuery(base, encoded) : `${base}#${encoded}`;
}
