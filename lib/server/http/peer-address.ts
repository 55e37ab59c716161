import { PEER_ADDRESS_HEADER } from "./peer-address-header.mjs";

/**
 * The address of the connection's peer, stamped by server.mjs's request guard (never taken from
 * the client), or null when the request did not come through server.mjs. X-Forwarded-For is not
 * read: the hub has no trusted-proxy setting, and a client can send any value in it (clientIp,
 * which reads it, is for throttling only). Behind a reverse proxy this is the proxy's address.
 */
export function peerAddress(headers: Headers): string | null {
  return headers.get(PEER_ADDRESS_HEADER) || null;
}
