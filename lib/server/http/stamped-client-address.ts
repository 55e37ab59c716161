import { CLIENT_ADDRESS_HEADER } from "./client-address.mjs";
import type { TPlainRequest } from "./plain-endpoint";

/**
 * The client's address as server.mjs's request guard stamped it (client-address.mjs: the TCP peer,
 * or past the proxies HUB_TRUSTED_PROXIES trusts, never a value the client chose), or null when
 * the request did not come through server.mjs.
 */
export function clientAddress(headers: Headers | Pick<TPlainRequest, "header">): string | null {
  return (headers instanceof Headers ? headers.get(CLIENT_ADDRESS_HEADER) : headers.header(CLIENT_ADDRESS_HEADER)) || null;
}
