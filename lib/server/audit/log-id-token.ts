import { logAccess } from "./log-access";

/**
 * The id token's claims about the person (the others — iss, aud, exp, iat, jti, nonce, at_hash —
 * are about the token itself): what the institution's access log names for an id token issued.
 */
export const ID_TOKEN_PERSONAL_CLAIMS = ["sub"] as const;

/**
 * Records an id token issued to an application for a profile, in the profile's institution's
 * access log, off the response path (one insert, not awaited).
 */
export function logIdTokenIssued(options: { applicationId: string; profileId: string }): void {
  logAccess({ channel: "id_token", applicationId: options.applicationId, profileId: options.profileId, attributes: ID_TOKEN_PERSONAL_CLAIMS, status: 200 });
}
