// The relying party's configuration of one upstream provider: openid-client's discovery, cached so
// an upstream sign-in costs at most one discovery read per provider per hour and process
// (issue #42, point 7). openid-client (oauth4webapi) keeps the provider's JWKS with the
// configuration for five minutes, and fetches it sooner for an unknown `kid` once the cached set is
// a minute old (key rotation): about twelve JWKS reads per provider per hour and process.
import * as client from "openid-client";
import { env } from "@/lib/env";
import { decryptSecret } from "@/lib/server/crypto/secret-box";
import { pinnedFetch } from "@/lib/server/http/pinned-fetch";
import { UPSTREAM_SECRET_PURPOSE, type TProviderRow } from "./provider-row";

/** How long a discovery document is trusted before it is read again. */
export const DISCOVERY_MAX_AGE_MS = 60 * 60 * 1000;
const TIMEOUT_S = 5;
/** Discovery documents and JWKS are a few kB; far more is not one. */
const MAX_ANSWER_BYTES = 512 * 1024;

interface TCached {
  /** The provider's settings the configuration was made from: a change in /gestao makes a new one. */
  version: string;
  at: number;
  config: Promise<client.Configuration>;
}

// Per process, keyed by provider id: a handful of providers per network.
const cache = new Map<string, TCached>();

/** The callback every provider is registered with, the same for all (docs/sign-in.md). */
export function upstreamRedirectUri(): string {
  return `${env().HUB_BASE_URL}/entrar/retorno`;
}

/**
 * http:// issuers only on loopback and only when the operator set DEMO_TOOL=1 (the tests' own
 * provider): a real provider is always https (OpenID Connect Discovery §4.3 compares the issuer
 * exactly, and openid-client refuses http without this).
 */
export function insecureIssuerAllowed(issuer: URL): boolean {
  return issuer.protocol === "http:" && env().DEMO_TOOL_EXPLICIT && ["localhost", "127.0.0.1", "[::1]"].includes(issuer.hostname);
}

async function discover(provider: TProviderRow): Promise<client.Configuration> {
  const issuer = new URL(provider.issuer);
  const secret = decryptSecret(provider.clientSecretSealed, UPSTREAM_SECRET_PURPOSE);
  // Entra ID documents the secret in the body; the others take HTTP Basic (RFC 6749 §2.3.1).
  const auth = provider.kind === "microsoft" ? client.ClientSecretPost(secret) : client.ClientSecretBasic(secret);
  return client.discovery(issuer, provider.clientId, { id_token_signed_response_alg: "RS256" }, auth, {
    timeout: TIMEOUT_S,
    // Every request to the provider (discovery, JWKS, token) through the SSRF guard: a manager types the issuer.
    [client.customFetch]: pinnedFetch({ allowPrivateNetwork: env().DEMO_TOOL_EXPLICIT, maxBytes: MAX_ANSWER_BYTES, timeoutMs: TIMEOUT_S * 1000 }),
    // The id token's signature is checked against the provider's JWKS (see above): openid-client would otherwise trust the token endpoint's TLS alone (OpenID
    // Connect Core §3.1.3.7), and a token signed by a key the provider never published would pass.
    execute: [client.enableNonRepudiationChecks, ...(insecureIssuerAllowed(issuer) ? [client.allowInsecureRequests] : [])],
  });
}

/** The provider's configuration, discovered at most once an hour; a failed discovery is tried again at the next sign-in. */
export function upstreamClient(provider: TProviderRow): Promise<client.Configuration> {
  const version = `${provider.updatedAt.getTime()}:${provider.issuer}:${provider.clientId}`;
  const cached = cache.get(provider.id);
  if (cached && cached.version === version && Date.now() - cached.at < DISCOVERY_MAX_AGE_MS) return cached.config;
  const config = discover(provider);
  const entry: TCached = { version, at: Date.now(), config };
  cache.set(provider.id, entry);
  config.catch(() => {
    if (cache.get(provider.id) === entry) cache.delete(provider.id);
  });
  return config;
}
