import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { urlProblem } from "@/lib/validations/developer";
import { classifyAddress } from "../classify-address";

export type TLookupAll = (hostname: string) => Promise<LookupAddress[]>;

export interface TLaunchTarget {
  url: URL;
  /** Host name without IPv6 brackets, as node:http wants it. */
  hostname: string;
  /** Every address the name resolved to, each one checked; connections use only these. */
  addresses: LookupAddress[];
}

export type TResolvedTarget = { ok: true; target: TLaunchTarget } | { ok: false; message: string };

export interface ResolveLaunchTargetOptions {
  launchUrl: string;
  /** Demo mode set explicitly by the operator (DEMO_TOOL=1): loopback and private are allowed. */
  allowPrivateNetwork: boolean;
  lookup?: TLookupAll;
}

/**
 * The one answer for a target the tester will not send to: not public, or a name that does not
 * resolve. Never the address or its kind, so the tester cannot map which internal names exist
 * or where they point.
 */
export const TARGET_REFUSED =
  "O testador só envia lançamentos para endereços públicos da internet, e este endereço não é um deles (ou o nome não foi encontrado). " +
  "Para testar uma ferramenta nesta máquina ou na rede local, o operador do Hub precisa iniciá-lo com DEMO_TOOL=1.";

const systemLookup: TLookupAll = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

/**
 * Resolves the launch URL's host to all of its addresses and refuses the target if any of them
 * is not public (resolvePinnedTarget).
 */
export async function resolveLaunchTarget({ launchUrl, allowPrivateNetwork, lookup = systemLookup }: ResolveLaunchTargetOptions): Promise<TResolvedTarget> {
  const problem = urlProblem(launchUrl, "launch");
  if (problem) return { ok: false, message: `Endereço de lançamento inválido: ${problem}` };
  const target = await resolvePinnedTarget({ url: new URL(launchUrl), allowPrivateNetwork, lookup });
  return target ? { ok: true, target } : { ok: false, message: TARGET_REFUSED };
}

/**
 * The SSRF guard of every request the hub's server sends to an address an edtech typed (the
 * launch tester, webhooks): resolves the host to all of its addresses and answers null if any of
 * them is not public — one private address among public ones is enough for a connection to land
 * there — or if the name does not resolve. Demo mode relaxes loopback and private ranges only:
 * link-local (the cloud metadata service lives at 169.254.169.254) and reserved ranges are never
 * a partner. Connections then use only the returned addresses (postToTarget, post-launch.ts).
 */
export async function resolvePinnedTarget({ url, allowPrivateNetwork, lookup = systemLookup }: { url: URL; allowPrivateNetwork: boolean; lookup?: TLookupAll }): Promise<TLaunchTarget | null> {
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: LookupAddress[];
  if (isIP(hostname)) {
    addresses = [{ address: hostname, family: isIP(hostname) }];
  } else {
    try {
      addresses = await lookup(hostname);
    } catch {
      return null;
    }
  }
  if (addresses.length === 0) return null;
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (kind === "public") continue;
    if (allowPrivateNetwork && (kind === "loopback" || kind === "private")) continue;
    return null;
  }
  return { url, hostname, addresses };
}
