import { db } from "@/lib/server/db/database";
import { normalizeBaseUrl } from "@/lib/lti/base-string";
import { decryptSecret } from "@/lib/server/crypto/secret-box";
import { LTI_SECRET_PURPOSE } from "./lti-secret-purpose";

export interface FindToolSecretOptions {
  consumerKey: string;
  /** The launch endpoint asking: only tools registered with this launch URL count. */
  endpointUrl: string;
}

function sameEndpoint(launchUrl: string, endpoint: string): boolean {
  try {
    return normalizeBaseUrl(launchUrl) === endpoint;
  } catch {
    return false;
  }
}

/**
 * The shared secret a tool endpoint knows for a consumer key. Consumer keys are chosen by each
 * edtech, so they are not unique across the hub: the endpoint trusts only keys registered for
 * itself, and refuses a key that maps to two different secrets rather than guess.
 */
export async function findToolSecret({ consumerKey, endpointUrl }: FindToolSecretOptions): Promise<string | null> {
  if (!consumerKey) return null;
  const endpoint = normalizeBaseUrl(endpointUrl);
  const tools = await db().tool.findMany({ where: { consumerKey }, select: { launchUrl: true, sharedSecretEnc: true }, take: 50 });
  const secrets = new Set<string>();
  for (const tool of tools) {
    if (!sameEndpoint(tool.launchUrl, endpoint)) continue;
    try {
      secrets.add(decryptSecret(tool.sharedSecretEnc, LTI_SECRET_PURPOSE));
    } catch {
      // Sealed under another HUB_SECRET: unusable, and saying so in a 401 would help no one.
      console.error("LTI shared secret could not be decrypted; check HUB_SECRET");
    }
  }
  const [only] = secrets;
  return secrets.size === 1 && only !== undefined ? only : null;
}
