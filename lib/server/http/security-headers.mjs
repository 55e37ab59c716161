// The headers every response of the hub carries, in one place for both ways a request is answered:
// Next (next.config.mjs `headers()`) and the hot routes server.mjs answers beside it
// (hot-routes.ts). Plain JavaScript: next.config.mjs loads it with no build step.

/** On every response. */
export const SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
];

/**
 * The default Content-Security-Policy, and the paths that send their own instead (the launch
 * page's nonce and form-action, the reference tool's pages, logos); each of those includes
 * frame-ancestors 'none' itself.
 */
export const DEFAULT_CSP = { key: "Content-Security-Policy", value: "frame-ancestors 'none'" };
export const OWN_CSP_PREFIXES = ["launch/", "demo-tool/", "assets/"];

/**
 * Sets on a response of `path` (its pathname) the headers Next's rules above would: they replace
 * a route's own header of the same name; the paths with their own CSP keep it.
 * @param {string} path
 * @param {(name: string, value: string) => void} set
 */
export function applySecurityHeaders(path, set) {
  for (const { key, value } of SECURITY_HEADERS) set(key, value);
  if (!OWN_CSP_PREFIXES.some((prefix) => path.startsWith(`/${prefix}`))) set(DEFAULT_CSP.key, DEFAULT_CSP.value);
}
