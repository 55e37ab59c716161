// The networks a sign-in card may be used from: an institution's list of CIDR ranges (IPv4 or
// IPv6). Pure code, with ipaddr.js doing the address arithmetic.
import ipaddr from "ipaddr.js";

/** At most this many ranges per institution (a school has a handful). */
export const MAX_CARD_NETWORKS = 50;

/**
 * The ranges typed in a textarea (one per line, or separated by commas or spaces), normalised
 * (`10.0.0.7/8` → `10.0.0.0/8`), or the message for the first one that is not a range.
 */
export function parseCardNetworks(text: string): { ok: true; networks: string[] } | { ok: false; message: string } {
  const items = text.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean);
  if (items.length > MAX_CARD_NETWORKS) return { ok: false, message: `No máximo ${MAX_CARD_NETWORKS} faixas.` };
  const networks: string[] = [];
  for (const item of items) {
    const range = parseRange(item);
    if (!range) return { ok: false, message: `“${item.slice(0, 60)}” não é uma faixa CIDR (ex.: 10.20.0.0/16 ou 2001:db8::/32).` };
    const [address, bits] = range;
    const normal = `${ipaddr.fromByteArray(networkBytes(address, bits)).toString()}/${bits}`;
    if (!networks.includes(normal)) networks.push(normal);
  }
  return { ok: true, networks };
}

/** A range, or a single address read as /32 (/128). */
function parseRange(text: string): [ipaddr.IPv4 | ipaddr.IPv6, number] | null {
  try {
    if (text.includes("/")) return ipaddr.parseCIDR(text);
    const address = ipaddr.parse(text);
    return [address, address.kind() === "ipv4" ? 32 : 128];
  } catch {
    return null;
  }
}

function networkBytes(address: ipaddr.IPv4 | ipaddr.IPv6, bits: number): number[] {
  return address.toByteArray().map((byte, i) => {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    return byte & ((0xff << (8 - keep)) & 0xff);
  });
}

/**
 * Whether `address` (as the socket reported it: IPv4-mapped IPv6 such as `::ffff:10.0.0.5` is read
 * as IPv4) lies in one of `networks`. An empty list allows every address; an address that cannot
 * be read is in none.
 */
export function addressInNetworks(address: string | null | undefined, networks: readonly string[]): boolean {
  if (networks.length === 0) return true;
  if (!address || !ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return networks.some((network) => {
    const range = parseRange(network);
    return range !== null && range[0].kind() === parsed.kind() && parsed.match(range);
  });
}
