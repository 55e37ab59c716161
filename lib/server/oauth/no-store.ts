/**
 * The headers of every OAuth and OpenID answer that may carry a code, a token or request data
 * (RFC 6749 §5.1: "Cache-Control: no-store" and "Pragma: no-cache"): never kept by a cache.
 */
export const NO_STORE: Readonly<Record<string, string>> = Object.freeze({ "Cache-Control": "no-store", Pragma: "no-cache" });
