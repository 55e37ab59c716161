// Acceptance: the whole code flow driven by openid-client (a standard client library) through
// discovery, PKCE, the token exchange and user info, against the real route handlers (its
// customFetch hook serves every HTTP call from them in process).
//
// openid-client is a devDependency: if it is missing, this file fails to load (never skipped).
import * as client from "openid-client";
import { beforeAll, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { setupTestDatabase } from "@/test/database";
import { decideAuthorization } from "./decide-authorization";
import { createOAuthWorld, hubFetch, TEST_ISSUER, type TOAuthWorld } from "@/test/fixtures/oauth";
import { applicationPartner, partnerIdOf } from "@/test/fixtures/pairwise";

setupTestDatabase();
let w: TOAuthWorld;

beforeAll(async () => {
  process.env.HUB_BASE_URL = TEST_ISSUER;
  process.env.HUB_SECRET = "openid-client-test-secret-0123456789abcdef";
  resetEnvCache();
  w = await createOAuthWorld();
});

/** The browser's part: the signed-in person picks `profileId`; returns where the hub redirects. */
async function browser(authorizationUrl: URL, profileId: string): Promise<URL> {
  const outcome = await decideAuthorization({
    query: authorizationUrl.searchParams,
    session: { personId: w.personId, profileId },
    step: "continue",
  });
  if (outcome.kind !== "redirect") throw new Error(`expected a redirect, got ${outcome.kind}`);
  return new URL(outcome.location);
}

/** Every call the library makes, to check which client authentication it used. */
const calls: { url: string; headers: Headers; body: string }[] = [];
const customFetch: client.CustomFetch = (url, options) => {
  calls.push({ url, headers: new Headers(options.headers), body: String(options.body ?? "") });
  return hubFetch(url, options as RequestInit);
};

describe.each([
  ["client_secret_post (the library's default)", false],
  ["client_secret_basic", true],
])("openid-client: discovery, PKCE, code, user info — %s", (_label, basic) => {
  it("signs the person in with the chosen profile and reads its user info", async () => {
    const config = await client.discovery(
      new URL(TEST_ISSUER),
      w.app.clientId,
      w.app.clientSecret,
      basic ? client.ClientSecretBasic() : undefined,
      { execute: [client.allowInsecureRequests], [client.customFetch]: customFetch },
    );
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    const authorizationUrl = client.buildAuthorizationUrl(config, {
      redirect_uri: w.app.redirectUri,
      scope: "openid user.info",
      response_type: "code",
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${TEST_ISSUER}/lti/v1/oauth2/authorize`);

    const callback = await browser(authorizationUrl, w.guardianB);
    const tokens = await client.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce, idTokenExpected: true });
    expect(tokens.token_type.toLowerCase()).toBe("bearer");
    const pairwise = await partnerIdOf(applicationPartner(w.app.id), w.guardianB);
    expect(tokens.user_id).toBe(pairwise);
    const claims = tokens.claims();
    expect(claims).toMatchObject({ sub: pairwise, iss: TEST_ISSUER, aud: w.app.clientId, nonce });

    const info = await client.fetchUserInfo(config, tokens.access_token, claims!.sub);
    expect(info).toMatchObject({ sub: pairwise, user_id: pairwise, perfil: "responsavel", instituicao: { nome: "Escola B" } });

    const tokenCall = calls.filter((c) => c.body.includes("grant_type=authorization_code")).at(-1);
    expect(tokenCall?.headers.get("content-type")).toContain("application/x-www-form-urlencoded");
    if (basic) expect(tokenCall?.headers.get("authorization")).toMatch(/^Basic /);
    else expect(tokenCall?.body).toContain("client_secret=");
  });
});
