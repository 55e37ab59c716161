import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { isIP } from "node:net";
import { urlProblem } from "@/lib/validations/developer";
import { classifyAddress, type TAddressClass } from "../classify-address";

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
  /** Demo mode: the reference tool runs on the hub itself, so loopback and private are allowed. */
  allowPrivateNetwork: boolean;
  lookup?: TLookupAll;
}

const CLASS_LABEL: Record<Exclude<TAddressClass, "public">, string> = {
  loopback: "de loopback (a própria máquina)",
  private: "de rede privada",
  "link-local": "link-local",
  reserved: "reservado",
};

const systemLookup: TLookupAll = (hostname) =>
  new Promise((resolve, reject) => {
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => (error ? reject(error) : resolve(addresses)));
  });

/**
 * Resolves the launch URL's host to all of its addresses and refuses the target if any of them
 * is not public — one private address among public ones is enough for a connection to land
 * there. Demo mode relaxes loopback and private ranges only: link-local (the cloud metadata
 * service lives at 169.254.169.254) and reserved ranges are never a tool.
 */
export async function resolveLaunchTarget({ launchUrl, allowPrivateNetwork, lookup = systemLookup }: ResolveLaunchTargetOptions): Promise<TResolvedTarget> {
  const problem = urlProblem(launchUrl, "launch");
  if (problem) return { ok: false, message: `Endereço de lançamento inválido: ${problem}` };
  const url = new URL(launchUrl);
  const hostname = url.hostname.replace(/^\[|\]$/g, "");
  let addresses: LookupAddress[];
  if (isIP(hostname)) {
    addresses = [{ address: hostname, family: isIP(hostname) }];
  } else {
    try {
      addresses = await lookup(hostname);
    } catch {
      return { ok: false, message: `Não foi possível resolver o nome ${hostname}.` };
    }
  }
  if (addresses.length === 0) return { ok: false, message: `O nome ${hostname} não tem endereços.` };
  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (kind === "public") continue;
    if (allowPrivateNetwork && (kind === "loopback" || kind === "private")) continue;
    return {
      ok: false,
      message: `${hostname} aponta para ${address}, um endereço ${CLASS_LABEL[kind]}. O testador só envia lançamentos para endereços públicos da internet.`,
    };
  }
  return { ok: true, target: { url, hostname, addresses } };
}
