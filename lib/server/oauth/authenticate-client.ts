import { readClientCredentials } from "@/lib/oauth/client-auth";
import { OAuthError } from "@/lib/oauth/errors";
import { hashSecret, safeEqual } from "@/lib/oauth/secret";
import { findApplication, type TOAuthApplication } from "./find-application";

// Compared against when the client_id is unknown, so an unknown client costs the same time as a
// known one with a wrong secret (no client_id enumeration by timing).
const DUMMY_HASH = hashSecret("hub/unknown-client");

/**
 * RFC 6749 §2.3.1 client authentication at the token endpoint: HTTP Basic or client_id +
 * client_secret in the body. Unknown client or wrong secret → invalid_client (401).
 */
export async function authenticateClient(input: {
  authorizationHeader: string | null;
  body: Readonly<Record<string, unknown>>;
}): Promise<TOAuthApplication | OAuthError> {
  const credentials = readClientCredentials({ authorizationHeader: input.authorizationHeader, body: input.body });
  if (credentials instanceof OAuthError) return credentials;
  const application = await findApplication({ clientId: credentials.clientId });
  const matches = safeEqual(hashSecret(credentials.clientSecret), application?.clientSecretHash ?? DUMMY_HASH);
  if (!application || !matches) return new OAuthError("invalid_client", "Client authentication failed");
  return application;
}
