// @ts-check
// The client's address, as far as the hub can know it: the TCP peer's, unless the peer is one of
// the reverse proxies HUB_TRUSTED_PROXIES names; then X-Forwarded-For is read from the right, past
// every trusted proxy, to the first address none of them is (proxy-addr, Express's own rule). A
// client cannot choose it: without a trusted proxy in front, whatever it sends in X-Forwarded-For
// is ignored. server.mjs's request guard stamps it on every request (CLIENT_ADDRESS_HEADER) for
// the sign-in throttles and the sign-in cards' network rule (docs/security.md, "Sign-in").
import proxyAddr from "proxy-addr";
import { log } from "../log.mjs";

/**
 * The request header server.mjs's guard always overwrites with the client's address, so that a
 * client cannot send it; Next's route handlers read it there (stamped-client-address.ts).
 */
export const CLIENT_ADDRESS_HEADER = "x-hub-client-address";

/** @typedef {(address: string, hop: number) => boolean} TTrust */

/** @type {TTrust} */
const TRUST_NONE = () => false;

/**
 * Which peers are trusted proxies, from HUB_TRUSTED_PROXIES: comma-separated addresses and CIDR
 * ranges (`10.0.0.0/8`, `2001:db8::/32`), or `loopback`, `linklocal`, `uniquelocal`. Empty: none.
 * @param {string | undefined} setting
 * @returns {TTrust}
 * @throws {Error} naming the entry that is not an address, a range or one of the three names
 */
export function trustedProxies(setting) {
  const entries = (setting ?? "").split(",").map((entry) => entry.trim()).filter(Boolean);
  if (entries.length === 0) return TRUST_NONE;
  for (const entry of entries) {
    try {
      proxyAddr.compile(entry);
    } catch {
      throw new Error(`HUB_TRUSTED_PROXIES: "${entry}" is not an IP address, a CIDR range, loopback, linklocal or uniquelocal`);
    }
  }
  return proxyAddr.compile(entries);
}

/** @type {TTrust | undefined} */
let configured;

/** The trusted proxies of this process's HUB_TRUSTED_PROXIES (read once). */
export function configuredTrust() {
  configured ??= trustedProxies(process.env.HUB_TRUSTED_PROXIES);
  return configured;
}

/**
 * The client's address for a request from its socket and headers ("" when the socket has none:
 * a destroyed connection).
 * @param {Pick<import("node:http").IncomingMessage, "headers"> & { socket?: { remoteAddress?: string } }} req
 * @param {TTrust} trust
 * @returns {string}
 */
export function clientAddressOf(req, trust) {
  const peer = req.socket?.remoteAddress;
  if (!peer) return "";
  if (trust === TRUST_NONE) return peer;
  // proxy-addr reads only `socket.remoteAddress` and the X-Forwarded-For header.
  return proxyAddr(/** @type {import("node:http").IncomingMessage} */ ({ socket: { remoteAddress: peer }, headers: req.headers }), trust);
}

let warned = false;

/**
 * Stamps the client's address on the request (CLIENT_ADDRESS_HEADER), overwriting whatever the
 * client sent there. Said once per process: X-Forwarded-For arriving while no proxy is trusted,
 * the sign of a proxy HUB_TRUSTED_PROXIES should name (then every request counts as the proxy's).
 * @param {Pick<import("node:http").IncomingMessage, "headers"> & { socket?: { remoteAddress?: string } }} req
 * @param {TTrust} [trust]
 */
export function stampClientAddress(req, trust = configuredTrust()) {
  req.headers[CLIENT_ADDRESS_HEADER] = clientAddressOf(req, trust);
  if (trust === TRUST_NONE && !warned && req.headers["x-forwarded-for"] !== undefined) {
    warned = true;
    log().warn(
      "A request carried X-Forwarded-For, and HUB_TRUSTED_PROXIES names no proxy: the hub takes the connection's address as the client's. Behind a reverse proxy, set HUB_TRUSTED_PROXIES to its addresses (docs/security.md).",
    );
  }
}
