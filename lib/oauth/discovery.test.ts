import { describe, expect, it } from "vitest";
import { openIdConfiguration } from "./discovery";

describe("openIdConfiguration", () => {
  it("describes the hub's endpoints under the issuer", () => {
    const doc = openIdConfiguration("https://hub.example");
    expect(doc).toMatchObject({
      issuer: "https://hub.example",
      authorization_endpoint: "https://hub.example/lti/v1/oauth2/authorize",
      token_endpoint: "https://hub.example/lti/v1/oauth2/authorize",
      userinfo_endpoint: "https://hub.example/users/v1/users/info",
      jwks_uri: "https://hub.example/.well-known/jwks.json",
      response_types_supported: ["code", "token", "id_token", "id_token token"],
      response_modes_supported: ["query", "fragment"],
      grant_types_supported: ["authorization_code", "implicit"],
      subject_types_supported: ["pairwise"],
      id_token_signing_alg_values_supported: ["RS256"],
      token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
      code_challenge_methods_supported: ["S256"],
      scopes_supported: ["openid", "user.info"],
      prompt_values_supported: ["none", "login", "consent", "select_account"],
      authorization_response_iss_parameter_supported: true,
    });
    expect(doc.claims_supported).toEqual(expect.arrayContaining(["iss", "sub", "aud", "exp", "iat", "nonce", "at_hash"]));
  });

  it("keeps a path in the issuer", () => {
    expect(openIdConfiguration("http://localhost:3000/hub").jwks_uri).toBe("http://localhost:3000/hub/.well-known/jwks.json");
  });

  it.each(["https://hub.example/", "https://hub.example?x=1", "https://hub.example#f", "ftp://hub.example", "hub.example"])(
    "refuses a bad issuer: %s",
    (issuer) => {
      expect(() => openIdConfiguration(issuer)).toThrow(/issuer/);
    },
  );
});
