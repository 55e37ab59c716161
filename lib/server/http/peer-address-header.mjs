// @ts-check
/**
 * The address of the TCP peer, as server.mjs saw it, for the routes that decide by network (the
 * sign-in cards' CIDR list, peer-address.ts). The request guard always overwrites it, so a client
 * cannot send it; unlike X-Forwarded-For, which Next fills only when the client did not.
 */
export const PEER_ADDRESS_HEADER = "x-hub-peer-address";
