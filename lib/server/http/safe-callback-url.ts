const PROBE_ORIGIN = "http://hub.invalid";

/**
 * A path on the hub to go to after sign-in or a profile choice, or `fallback`. Browsers drop tabs
 * and newlines and read `\` as `/`, so `/\t/evil.example` or `/\evil.example` would leave the
 * origin: any control character, space or backslash refuses the value, and what remains must
 * resolve to the hub's own origin. The answer is re-serialised from the parsed URL.
 */
export function safeCallbackUrl(value: string | string[] | null | undefined, fallback = "/"): string {
  const v = Array.isArray(value) ? value[0] : value;
  if (!v || !v.startsWith("/") || /[\u0000-\u0020\u007f\\]/.test(v)) return fallback;
  let url: URL;
  try {
    url = new URL(v, PROBE_ORIGIN);
  } catch {
    return fallback;
  }
  if (url.origin !== PROBE_ORIGIN || url.pathname.startsWith("//")) return fallback;
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * The longest return address carried through a redirect, encoded. Past it the address is dropped
 * (the person lands on the hub's home instead): a Location of several kilobytes breaks proxies
 * and HTTP clients, whose response headers are limited (nginx 4–8 KiB, Node 16 KiB).
 */
export const MAX_RETURN_URL_ENCODED = 4096;

/**
 * `/login` or `/perfil` carrying where to go afterwards, through `safeCallbackUrl`. Every redirect
 * to sign-in or to the profile picker is built here.
 */
export function withCallbackUrl(page: "/login" | "/perfil", returnTo: string | null | undefined, extra: Record<string, string> = {}): string {
  const encoded = encodeURIComponent(safeCallbackUrl(returnTo));
  const params = Object.entries(extra).map(([name, value]) => `&${name}=${encodeURIComponent(value)}`).join("");
  return encoded.length > MAX_RETURN_URL_ENCODED ? `${page}?callbackUrl=%2F${params}` : `${page}?callbackUrl=${encoded}${params}`;
}
