/**
 * Where an IP address points, for the launch tester's SSRF guard. The tester makes the hub's
 * server send requests to an address an edtech typed; without this check it could reach the
 * hub's own services, the cloud metadata endpoint or the private network behind it.
 *
 * IPv6 addresses that embed an IPv4 one (::ffff:a.b.c.d mapped, ::a.b.c.d compatible, NAT64
 * 64:ff9b::/96, 6to4 2002::/16) are classified by the embedded address, so 10.0.0.1 cannot be
 * smuggled in as ::ffff:a00:1.
 */
import { isIP } from "node:net";

export type TAddressClass = "public" | "loopback" | "private" | "link-local" | "reserved";

type V4Range = [base: number, prefix: number, kind: Exclude<TAddressClass, "public">];

// IANA IPv4 Special-Purpose Address Registry, every entry not globally reachable.
const V4_RANGES: readonly V4Range[] = [
  [ip4(0, 0, 0, 0), 8, "reserved"], // "this network"
  [ip4(10, 0, 0, 0), 8, "private"],
  [ip4(100, 64, 0, 0), 10, "private"], // carrier-grade NAT
  [ip4(127, 0, 0, 0), 8, "loopback"],
  [ip4(169, 254, 0, 0), 16, "link-local"], // includes 169.254.169.254, the cloud metadata service
  [ip4(172, 16, 0, 0), 12, "private"],
  [ip4(192, 0, 0, 0), 24, "reserved"], // IETF protocol assignments
  [ip4(192, 0, 2, 0), 24, "reserved"], // TEST-NET-1
  [ip4(192, 88, 99, 0), 24, "reserved"], // 6to4 relay anycast
  [ip4(192, 168, 0, 0), 16, "private"],
  [ip4(198, 18, 0, 0), 15, "reserved"], // benchmarking
  [ip4(198, 51, 100, 0), 24, "reserved"], // TEST-NET-2
  [ip4(203, 0, 113, 0), 24, "reserved"], // TEST-NET-3
  [ip4(224, 0, 0, 0), 4, "reserved"], // multicast
  [ip4(240, 0, 0, 0), 4, "reserved"], // future use and broadcast
];

function ip4(a: number, b: number, c: number, d: number): number {
  return ((a << 24) | (b << 16) | (c << 8) | d) >>> 0;
}

function parseIpv4(address: string): number | null {
  const parts = address.split(".");
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return null;
  const [a, b, c, d] = parts.map(Number) as [number, number, number, number];
  return ip4(a, b, c, d);
}

function classifyIpv4(value: number): TAddressClass {
  for (const [base, prefix, kind] of V4_RANGES) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if (((value & mask) >>> 0) === base) return kind;
  }
  return "public";
}

/** Eight 16-bit groups, or null. Accepts "::" compression and a trailing dotted IPv4 part. */
function parseIpv6(address: string): number[] | null {
  let text = address;
  const tail: number[] = [];
  const dotted = /:(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (dotted?.[1]) {
    const v4 = parseIpv4(dotted[1]);
    if (v4 === null) return null;
    tail.push(v4 >>> 16, v4 & 0xffff);
    // "::1.2.3.4" leaves ":" before the dotted part: put back the "::" it belonged to.
    const before = text.slice(0, dotted.index);
    text = before.endsWith(":") ? `${before}:` : before;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const parse = (part: string | undefined): number[] | null => {
    if (!part) return [];
    const groups = part.split(":");
    if (!groups.every((g) => /^[0-9a-fA-F]{1,4}$/.test(g))) return null;
    return groups.map((g) => parseInt(g, 16));
  };
  const head = parse(halves[0]);
  const rest = parse(halves[1]);
  if (!head || !rest) return null;
  const explicit = head.length + rest.length + tail.length;
  if (halves.length === 1) return explicit === 8 ? [...head, ...tail] : null;
  if (explicit > 7) return null;
  return [...head, ...new Array<number>(8 - explicit).fill(0), ...rest, ...tail];
}

function startsWith(groups: number[], prefix: number[], bits: number): boolean {
  let remaining = bits;
  for (let i = 0; remaining > 0; i++) {
    const take = Math.min(16, remaining);
    const mask = (0xffff << (16 - take)) & 0xffff;
    if (((groups[i] ?? 0) & mask) !== ((prefix[i] ?? 0) & mask)) return false;
    remaining -= take;
  }
  return true;
}

function embeddedV4(high: number, low: number): number {
  return ((high << 16) | low) >>> 0;
}

function classifyIpv6(g: number[]): TAddressClass {
  const zeros = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (zeros(8)) return "reserved"; // ::
  if (zeros(7) && g[7] === 1) return "loopback"; // ::1
  if (zeros(5) && g[5] === 0xffff) return classifyIpv4(embeddedV4(g[6]!, g[7]!)); // ::ffff:a.b.c.d
  if (zeros(6)) return classifyIpv4(embeddedV4(g[6]!, g[7]!)); // ::a.b.c.d (deprecated compatible form)
  if (startsWith(g, [0x64, 0xff9b, 0, 0, 0, 0], 96)) return classifyIpv4(embeddedV4(g[6]!, g[7]!)); // NAT64
  if (startsWith(g, [0x64, 0xff9b, 1], 48)) return "private"; // local-use NAT64
  if (startsWith(g, [0x2002], 16)) return classifyIpv4(embeddedV4(g[1]!, g[2]!)); // 6to4
  if (startsWith(g, [0x100, 0, 0, 0], 64)) return "reserved"; // discard-only
  if (startsWith(g, [0x2001, 0], 32)) return "reserved"; // Teredo: tunnels to an address we cannot see
  if (startsWith(g, [0x2001, 0xdb8], 32)) return "reserved"; // documentation
  if (startsWith(g, [0xfc00], 7)) return "private"; // unique local
  if (startsWith(g, [0xfe80], 10)) return "link-local";
  if (startsWith(g, [0xfec0], 10)) return "private"; // deprecated site-local
  if (startsWith(g, [0xff00], 8)) return "reserved"; // multicast
  return "public";
}

/** Classifies an IPv4 or IPv6 address (brackets and a %zone suffix allowed); unparseable is "reserved". */
export function classifyAddress(address: string): TAddressClass {
  const bare = address.replace(/^\[|\]$/g, "").replace(/%.*$/, "");
  if (isIP(bare) === 4) {
    const v4 = parseIpv4(bare);
    return v4 === null ? "reserved" : classifyIpv4(v4);
  }
  if (isIP(bare) === 6) {
    const groups = parseIpv6(bare);
    return groups ? classifyIpv6(groups) : "reserved";
  }
  return "reserved";
}
