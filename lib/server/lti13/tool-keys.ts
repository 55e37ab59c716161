// The keys a tool registered (a JWKS URL or one public JWK), as a jose key getter. A JWKS URL is
// fetched only if it resolves to public addresses (the launch tester's rule; private ranges only
// when the operator set DEMO_TOOL=1), checked again at every fetch, and the connection goes only to
// the addresses that were checked (a second DNS answer cannot point it inside: DNS rebinding).
// jose keeps its timeout, cooldown and cache.
import { createLocalJWKSet, createRemoteJWKSet, customFetch, type JWK, type JWTVerifyGetKey } from "jose";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { resolveLaunchTarget, type TLookupAll } from "@/lib/server/developer/launch-test/resolve-launch-target";
import { pinnedFetch } from "@/lib/server/http/pinned-fetch";

const remoteSets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
/** A JWKS is a few keys; far more is not one. */
const MAX_JWKS_BYTES = 256 * 1024;
const TIMEOUT_MS = 5000;

export async function toolKeys(registration: { jwksUrl: string | null; publicJwk: unknown }, options: { lookup?: TLookupAll } = {}): Promise<JWTVerifyGetKey> {
  if (registration.publicJwk) return createLocalJWKSet({ keys: [{ ...(registration.publicJwk as JWK), alg: "RS256" }] });
  if (!registration.jwksUrl) throw new AppError("bad_request", "A ferramenta não registrou chaves.");
  const allowPrivateNetwork = env().DEMO_TOOL_EXPLICIT;
  const target = await resolveLaunchTarget({ launchUrl: registration.jwksUrl, allowPrivateNetwork, ...(options.lookup ? { lookup: options.lookup } : {}) });
  if (!target.ok) throw new AppError("bad_request", "O endereço JWKS da ferramenta não é público.");
  const cacheKey = options.lookup ? undefined : registration.jwksUrl;
  let set = cacheKey ? remoteSets.get(cacheKey) : undefined;
  if (!set) {
    if (remoteSets.size > 1000) remoteSets.clear();
    set = createRemoteJWKSet(new URL(registration.jwksUrl), {
      timeoutDuration: TIMEOUT_MS,
      cooldownDuration: 30_000,
      cacheMaxAge: 10 * 60_000,
      [customFetch]: pinnedFetch({ allowPrivateNetwork, maxBytes: MAX_JWKS_BYTES, timeoutMs: TIMEOUT_MS, ...(options.lookup ? { lookup: options.lookup } : {}) }),
    });
    if (cacheKey) remoteSets.set(cacheKey, set);
  }
  return set;
}
