import { createLocalJWKSet, SignJWT } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { generateSigningKey, type SigningKey } from "@/lib/oauth/jwt";
import { importJWK } from "jose";
import { EXAMPLE_ISSUER, EXAMPLE_LAUNCH } from "@/test/fixtures/lti13";
import { buildLtiClaims } from "./claims";
import { validateLaunch, type TLaunchExpectations } from "./validate-launch";

const issuer = EXAMPLE_ISSUER;
const now = new Date("2026-11-27T12:00:00Z");
let key: SigningKey;
let other: SigningKey;

beforeAll(async () => {
  [key, other] = await Promise.all([generateSigningKey(), generateSigningKey()]);
});

const claims = () => buildLtiClaims(EXAMPLE_LAUNCH);


async function sign(options: { with?: SigningKey; aud?: string; iat?: Date; nonce?: string; extra?: Record<string, unknown> } = {}) {
  const signer = options.with ?? key;
  const iat = Math.floor((options.iat ?? now).getTime() / 1000);
  return new SignJWT({ ...claims(), nonce: options.nonce ?? "n1", ...options.extra })
    .setProtectedHeader({ alg: "RS256", kid: signer.kid, typ: "JWT" })
    .setIssuer(issuer)
    .setSubject("s1")
    .setAudience(options.aud ?? "cid")
    .setIssuedAt(iat)
    .setExpirationTime(iat + 300)
    .sign(await importJWK(signer.privateJwk, "RS256"));
}

function expectations(seen = new Set<string>()): TLaunchExpectations {
  return {
    issuer,
    clientId: "cid",
    keys: createLocalJWKSet({ keys: [key.publicJwk] }),
    deploymentIds: [EXAMPLE_LAUNCH.deploymentId],
    rememberNonce: async (nonce) => (seen.has(nonce) ? false : (seen.add(nonce), true)),
    now,
  };
}

describe("validateLaunch (what a correct tool refuses)", () => {
  it("accepts a good launch", async () => {
    const result = await validateLaunch(await sign(), expectations());
    expect(result).toMatchObject({ ok: true, messageType: "LtiResourceLinkRequest" });
  });
  it("refuses an expired id_token", async () => {
    expect(await validateLaunch(await sign({ iat: new Date(now.getTime() - 3600_000) }), expectations())).toEqual({ ok: false, rule: "notExpired" });
  });
  it("refuses a wrong aud", async () => {
    expect(await validateLaunch(await sign({ aud: "another-client" }), expectations())).toEqual({ ok: false, rule: "audienceIsClient" });
  });
  it("refuses a reused nonce", async () => {
    const seen = new Set<string>();
    const token = await sign();
    expect((await validateLaunch(token, expectations(seen))).ok).toBe(true);
    expect(await validateLaunch(token, expectations(seen))).toEqual({ ok: false, rule: "nonceUnused" });
  });
  it("refuses an unknown kid", async () => {
    expect(await validateLaunch(await sign({ with: other }), expectations())).toEqual({ ok: false, rule: "kidKnown" });
  });
  it("refuses a wrong deployment_id", async () => {
    const token = await sign({ extra: { "https://purl.imsglobal.org/spec/lti/claim/deployment_id": "d2" } });
    expect(await validateLaunch(token, expectations())).toEqual({ ok: false, rule: "deploymentIdKnown" });
  });
  it("refuses a forged signature (a known kid, another key's signature)", async () => {
    const forged = await new SignJWT({ ...claims(), nonce: "n" })
      .setProtectedHeader({ alg: "RS256", kid: key.kid })
      .setIssuer(issuer)
      .setSubject("s1")
      .setAudience("cid")
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(now.getTime() / 1000) + 300)
      .sign(await importJWK(other.privateJwk, "RS256"));
    expect(await validateLaunch(forged, expectations())).toEqual({ ok: false, rule: "signatureValid" });
  });
  it("refuses HS256 and a missing token", async () => {
    const hs = await new SignJWT({}).setProtectedHeader({ alg: "HS256" }).sign(new Uint8Array(32));
    expect(await validateLaunch(hs, expectations())).toEqual({ ok: false, rule: "algIsRs256" });
    expect(await validateLaunch(undefined, expectations())).toEqual({ ok: false, rule: "idTokenPresent" });
  });
  it("refuses another issuer and a wrong version", async () => {
    const wrongVersion = await sign({ extra: { "https://purl.imsglobal.org/spec/lti/claim/version": "1.1" } });
    expect(await validateLaunch(wrongVersion, expectations())).toEqual({ ok: false, rule: "versionIs130" });
    expect(await validateLaunch(await sign(), { ...expectations(), issuer: "https://evil.example" })).toEqual({ ok: false, rule: "issuerMatches" });
  });
});
