// The keys a tool registered (a JWKS URL or one public JWK), as a jose key getter. A JWKS URL is
// fetched only if it resolves to public addresses (the launch tester's rule; private ranges only
// when the operator set DEMO_TOOL=1), with jose's timeout and cache.
import { createLocalJWKSet, createRemoteJWKSet, type JWK, type JWTVerifyGetKey } from "jose";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { resolveLaunchTarget } from "@/lib/server/developer/launch-test/resolve-launch-target";

const remoteSets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

export async function toolKeys(registration: { jwksUrl: string | null; publicJwk: unknown }): Promise<JWTVerifyGetKey> {
  if (registration.publicJwk) return createLocalJWKSet({ keys: [{ ...(registration.publicJwk as JWK), alg: "RS256" }] });
  if (!registration.jwksUrl) throw new AppError("bad_request", "A ferramenta não registrou chaves.");
  const target = await resolveLaunchTarget({ launchUrl: registration.jwksUrl, allowPrivateNetwork: env().DEMO_TOOL_EXPLICIT });
  if (!target.ok) throw new AppError("bad_request", "O endereço JWKS da ferramenta não é público.");
  let set = remoteSets.get(registration.jwksUrl);
  if (!set) {
    if (remoteSets.size > 1000) remoteSets.clear();
    set = createRemoteJWKSet(new URL(registration.jwksUrl), { timeoutDuration: 5000, cooldownDuration: 30_000, cacheMaxAge: 10 * 60_000 });
    remoteSets.set(registration.jwksUrl, set);
  }
  return set;
}
