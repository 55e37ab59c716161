/**
 * OpenID Provider metadata served at /.well-known/openid-configuration (OIDC Discovery §3).
 */

export type OpenIdConfiguration = {
  issuer: string;
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint: string;
  jwks_uri: string;
  response_types_supported: string[];
  response_modes_supported: string[];
  grant_types_supported: string[];
  subject_types_supported: string[];
  id_token_signing_alg_values_supported: string[];
  token_endpoint_auth_methods_supported: string[];
  code_challenge_methods_supported: string[];
  scopes_supported: string[];
  claims_supported: string[];
  /** OpenID Connect Prompt Create 1.0 §4.1: the `prompt` values the authorization screen honours. */
  prompt_values_supported: string[];
  /** RFC 9207 §3: `iss` comes back on every authorization response. */
  authorization_response_iss_parameter_supported: boolean;
};

/**
 * OIDC Discovery §3: the issuer is an http(s) URL with no query or fragment, and must equal
 * the `iss` of every token byte for byte. A trailing slash would make `${issuer}/path` differ
 * from what clients compute, so it is refused instead of silently trimmed (which would break
 * that equality). A bad issuer is a deployment error, hence a thrown Error.
 */
export function assertIssuer(issuer: string): void {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    throw new Error(`OAuth issuer is not a URL: ${issuer}`);
  }
  const valid =
    (url.protocol === "https:" || url.protocol === "http:") &&
    url.search === "" &&
    url.hash === "" &&
    !issuer.endsWith("/") &&
    !issuer.includes("?") &&
    !issuer.includes("#");
  if (!valid) throw new Error(`OAuth issuer must be an http(s) URL without query, fragment or trailing slash: ${issuer}`);
}

/** The discovery document. The token endpoint shares the authorize URL, as the spec defines. */
export function openIdConfiguration(issuer: string): OpenIdConfiguration {
  assertIssuer(issuer);
  return {
    issuer,
    authorization_endpoint: `${issuer}/lti/v1/oauth2/authorize`,
    token_endpoint: `${issuer}/lti/v1/oauth2/authorize`,
    userinfo_endpoint: `${issuer}/users/v1/users/info`,
    jwks_uri: `${issuer}/.well-known/jwks.json`,
    // "token" is the registered name of access_token (RFC 6749 §4.2.1).
    response_types_supported: ["code", "token", "id_token", "id_token token"],
    response_modes_supported: ["query", "fragment"],
    grant_types_supported: ["authorization_code", "implicit"],
    // OIDC Core §8: every application gets its own subject for a person (docs/decisions/014).
    subject_types_supported: ["pairwise"],
    id_token_signing_alg_values_supported: ["RS256"],
    token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
    code_challenge_methods_supported: ["S256"],
    scopes_supported: ["openid", "user.info"],
    claims_supported: ["iss", "sub", "aud", "exp", "iat", "jti", "nonce", "at_hash"],
    prompt_values_supported: ["none", "login", "consent", "select_account"],
    authorization_response_iss_parameter_supported: true,
  };
}
