import { env } from "@/lib/env";
import { signIdToken } from "@/lib/oauth/jwt";
import { getSigningKey } from "@/lib/server/oauth/signing-keys";

/** The LTI 1.3 id_token's life: the browser posts it at once; the tool's nonce store must outlive it. */
export const LTI13_ID_TOKEN_SECONDS = 300;

/**
 * An LTI 1.3 message as an id_token: the hub's current OIDC signing key (RS256, kid), iss = the
 * hub, aud = azp = the tool's client id, sub = the tool's pairwise id, the tool's nonce.
 */
export async function signLti13IdToken(options: { claims: Record<string, unknown>; clientId: string; sub: string; nonce: string; now: Date }): Promise<string> {
  return signIdToken({
    key: await getSigningKey({ now: options.now }),
    issuer: env().HUB_BASE_URL,
    clientId: options.clientId,
    subject: options.sub,
    nonce: options.nonce,
    expiresInSeconds: LTI13_ID_TOKEN_SECONDS,
    now: options.now,
    extraClaims: { ...options.claims, azp: options.clientId },
  });
}
