import { describe, expect, it } from "vitest";
import { openIdConfiguration } from "./discovery";

describe("openIdConfiguration", () => {
  const doc = openIdConfiguration("https://hub.example");

  it.each([
    ["authorization_endpoint", "/lti/v1/oauth2/authorize"],
    ["token_endpoint", "/lti/v1/oauth2/authorize"],
    ["userinfo_endpoint", "/users/v1/users/info"],
    ["jwks_uri", "/.well-known/jwks.json"],
  ] as const)("puts %s at the issuer + %s", (field, path) => {
    expect(doc[field]).toBe(`https://hub.example${path}`);
  });

  // What a client library reads to decide how to talk to the hub (OIDC Discovery §3).
  it.each<[keyof typeof doc, unknown]>([
    ["issuer", "https://hub.example"],
    ["response_types_supported", ["code", "token", "id_token", "id_token token"]],
    ["response_modes_supported", ["query", "fragment"]],
    ["grant_types_supported", ["authorization_code", "implicit"]],
    ["subject_types_supported", ["pairwise"]],
    ["id_token_signing_alg_values_supported", ["RS256"]],
    ["token_endpoint_auth_methods_supported", ["client_secret_basic", "client_secret_post"]],
    ["code_challenge_methods_supported", ["S256"]],
    ["scopes_supported", ["openid", "user.info"]],
    ["prompt_values_supported", ["none", "login", "consent", "select_account"]],
    ["authorization_response_iss_parameter_supported", true],
  ])("announces %s", (field, value) => {
    expect(doc[field]).toEqual(value);
  });

  it("lists the id token's claims", () => {
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
