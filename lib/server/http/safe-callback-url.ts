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
