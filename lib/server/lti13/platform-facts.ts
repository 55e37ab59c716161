import { env } from "@/lib/env";

/** Where the hub's LTI 1.3 endpoints live (docs/lti13.md). */
export const LTI13_PATHS = {
  authorize: "/lti13/authorize",
  token: "/lti13/token",
  jwks: "/.well-known/jwks.json",
  deepLinkingReturn: "/lti13/deep-linking",
  memberships: "/lti13/memberships",
} as const;

export interface TPlatformFacts {
  issuer: string;
  clientId: string;
  deploymentId: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksUrl: string;
}

/** What an edtech pastes into its tool: the platform's side of the registration. */
export function platformFacts(registration: { clientId: string; deploymentId: string }): TPlatformFacts {
  const base = env().HUB_BASE_URL;
  return {
    issuer: base,
    clientId: registration.clientId,
    deploymentId: registration.deploymentId,
    authorizationEndpoint: `${base}${LTI13_PATHS.authorize}`,
    tokenEndpoint: `${base}${LTI13_PATHS.token}`,
    jwksUrl: `${base}${LTI13_PATHS.jwks}`,
  };
}
