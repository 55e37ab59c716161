// How long each OAuth artefact lives (docs/decisions/005-oauth-tokens.md). The spec leaves token
// lifetimes "not shown"; these are the hub's decisions.

/** Authorization codes: 60 s (DESIGN.md), well under RFC 6749 §4.1.2's 10-minute maximum. */
export const CODE_TTL_SECONDS = 60;

/** Access tokens: 1 h. There is no refresh grant, so a partner signs the user in again after that. */
export const ACCESS_TOKEN_TTL_SECONDS = 60 * 60;

/** Id tokens prove a sign-in that just happened; partners should not keep them around. */
export const ID_TOKEN_TTL_SECONDS = 10 * 60;

/** A signing key signs for 30 days, then a new one takes over. */
export const KEY_ROTATION_SECONDS = 30 * 24 * 60 * 60;

/** Clock skew we tolerate between instances and partners when deciding what is still valid. */
export const CLOCK_SKEW_SECONDS = 5 * 60;

/**
 * A retired key stays in the JWKS until every token it signed has expired (plus the skew), so a
 * partner can still verify an id token or access token signed just before the rotation.
 */
export const RETIRED_KEY_PUBLISH_SECONDS = Math.max(ACCESS_TOKEN_TTL_SECONDS, ID_TOKEN_TTL_SECONDS) + CLOCK_SKEW_SECONDS;

/** Rows older than this past their expiry are deleted opportunistically (nothing can use them). */
export const EXPIRED_ROW_RETENTION_SECONDS = 24 * 60 * 60;
