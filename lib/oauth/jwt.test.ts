import { createHmac } from "node:crypto";
import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, SignJWT, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { OAuthError } from "./errors";
import {
  computeAtHash,
  generateSigningKey,
  publicJwks,
  signAccessToken,
  signIdToken,
  verifyAccessToken,
  type AccessTokenInput,
  type SigningKey,
} from "./jwt";

const ISSUER = "https://hub.example";
const NOW = new Date("2026-03-01T12:00:00Z");
const NOW_S = Math.floor(NOW.getTime() / 1000);

let key: SigningKey;
let otherKey: SigningKey;

beforeAll(async () => {
  [key, otherKey] = await Promise.all([generateSigningKey(), generateSigningKey()]);
});

function accessInput(overrides: Partial<AccessTokenInput> = {}): AccessTokenInput {
  return {
    key,
    issuer: ISSUER,
    audience: "app-1",
    subject: "profile-1",
    clientId: "app-1",
    scope: ["user.info"],
    jti: "jti-1",
    expiresInSeconds: 3600,
    now: NOW,
    ...overrides,
  };
}

function verify(token: string, keys: SigningKey[] = [key], now: Date = NOW, issuer: string = ISSUER) {
  return verifyAccessToken(token, { issuer, getPublicKeys: async () => publicJwks(keys).keys, now });
}

async function expectInvalidToken(result: Promise<unknown>, description = "The access token is invalid") {
  const value = await result;
  expect(value).toBeInstanceOf(OAuthError);
  expect((value as OAuthError).code).toBe("invalid_token");
  expect((value as OAuthError).status).toBe(401);
  expect((value as OAuthError).description).toBe(description);
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

describe("generateSigningKey", () => {
  it("makes an RS256 key whose kid is its thumbprint and whose public JWK has no private part", () => {
    expect(key.alg).toBe("RS256");
    expect(key.kid).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(key.kid).not.toBe(otherKey.kid);
    expect(key.publicJwk).toMatchObject({ kty: "RSA", kid: key.kid, alg: "RS256", use: "sig" });
    expect(key.publicJwk.d).toBeUndefined();
    expect(key.privateJwk.d).toEqual(expect.any(String));
  });
});

describe("publicJwks", () => {
  it("lists only public members of every key", () => {
    const leaky: SigningKey = { ...key, publicJwk: { ...key.privateJwk } };
    const jwks = publicJwks([leaky, otherKey]);
    expect(jwks.keys).toHaveLength(2);
    for (const jwk of jwks.keys) {
      expect(Object.keys(jwk).sort()).toEqual(["alg", "e", "kid", "kty", "n", "use"]);
    }
    expect(jwks.keys.map((jwk) => jwk.kid)).toEqual([key.kid, otherKey.kid]);
  });
});

describe("signAccessToken / verifyAccessToken", () => {
  it("round-trips the RFC 9068 claims", async () => {
    const token = await signAccessToken(accessInput({ scope: ["user.info", "other"] }));
    expect(decodeProtectedHeader(token)).toEqual({ alg: "RS256", typ: "at+jwt", kid: key.kid });
    expect(await verify(token)).toEqual({
      iss: ISSUER,
      sub: "profile-1",
      aud: "app-1",
      exp: NOW_S + 3600,
      iat: NOW_S,
      jti: "jti-1",
      client_id: "app-1",
      scope: "user.info other",
    });
  });

  it("verifies with the right key among several (rotation)", async () => {
    const token = await signAccessToken(accessInput({ key: otherKey }));
    expect(await verify(token, [key, otherKey])).toMatchObject({ sub: "profile-1" });
  });

  it("refuses a key that is no longer published", async () => {
    await expectInvalidToken(verify(await signAccessToken(accessInput({ key: otherKey })), [key]));
  });

  it("refuses a tampered signature", async () => {
    const token = await signAccessToken(accessInput());
    const [header, payload, signature = ""] = token.split(".");
    const flipped = `${signature.startsWith("A") ? "B" : "A"}${signature.slice(1)}`;
    await expectInvalidToken(verify(`${header}.${payload}.${flipped}`));
  });

  it("refuses a tampered payload", async () => {
    const token = await signAccessToken(accessInput());
    const [header, , signature] = token.split(".");
    const forged = b64({ ...decodeJwt(token), sub: "profile-2" });
    await expectInvalidToken(verify(`${header}.${forged}.${signature}`));
  });

  it("refuses an expired token", async () => {
    const token = await signAccessToken(accessInput({ expiresInSeconds: 60 }));
    expect(await verify(token, [key], new Date(NOW.getTime() + 59_000))).toMatchObject({ jti: "jti-1" });
    await expectInvalidToken(verify(token, [key], new Date(NOW.getTime() + 61_000)), "The access token expired");
  });

  it("refuses a wrong issuer", async () => {
    await expectInvalidToken(verify(await signAccessToken(accessInput()), [key], NOW, "https://other.example"));
  });

  it("refuses alg none", async () => {
    const claims = decodeJwt(await signAccessToken(accessInput()));
    await expectInvalidToken(verify(`${b64({ alg: "none", typ: "at+jwt" })}.${b64(claims)}.`));
  });

  it("refuses HS256 signed with the public key (algorithm confusion)", async () => {
    const claims = decodeJwt(await signAccessToken(accessInput()));
    const signingInput = `${b64({ alg: "HS256", typ: "at+jwt", kid: key.kid })}.${b64(claims)}`;
    const mac = createHmac("sha256", JSON.stringify(key.publicJwk)).update(signingInput).digest("base64url");
    await expectInvalidToken(verify(`${signingInput}.${mac}`));
  });

  it("refuses another RSA algorithm (PS256) even when the JWK does not pin alg", async () => {
    const claims = decodeJwt(await signAccessToken(accessInput()));
    const pssKey = await importJWK({ ...key.privateJwk, alg: "PS256" }, "PS256");
    const token = await new SignJWT(claims).setProtectedHeader({ alg: "PS256", typ: "at+jwt", kid: key.kid }).sign(pssKey);
    const { alg: _alg, ...unpinned } = publicJwks([key]).keys[0] ?? {};
    const result = verifyAccessToken(token, { issuer: ISSUER, getPublicKeys: async () => [unpinned], now: NOW });
    await expectInvalidToken(result);
  });

  it("refuses a token whose typ is not at+jwt (an id token)", async () => {
    const idToken = await signIdToken({ key, issuer: ISSUER, clientId: "app-1", subject: "profile-1", expiresInSeconds: 600, now: NOW });
    await expectInvalidToken(verify(idToken));
  });

  it("refuses a token without typ", async () => {
    const privateKey = await importJWK(key.privateJwk, "RS256");
    const token = await new SignJWT(decodeJwt(await signAccessToken(accessInput())))
      .setProtectedHeader({ alg: "RS256", kid: key.kid })
      .sign(privateKey);
    await expectInvalidToken(verify(token));
  });

  it("refuses an at+jwt without client_id", async () => {
    const privateKey = await importJWK(key.privateJwk, "RS256");
    const { client_id: _dropped, ...claims } = decodeJwt(await signAccessToken(accessInput()));
    const token = await new SignJWT(claims).setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: key.kid }).sign(privateKey);
    await expectInvalidToken(verify(token));
  });

  it("refuses garbage", async () => {
    await expectInvalidToken(verify("not-a-jwt"));
    await expectInvalidToken(verify(""));
  });

  it("lets a key-store failure propagate instead of blaming the token", async () => {
    const token = await signAccessToken(accessInput());
    const failing = async (): Promise<JWK[]> => {
      throw new Error("database down");
    };
    await expect(verifyAccessToken(token, { issuer: ISSUER, getPublicKeys: failing, now: NOW })).rejects.toThrow("database down");
  });

  it("refuses a non-positive lifetime", async () => {
    await expect(signAccessToken(accessInput({ expiresInSeconds: 0 }))).rejects.toThrow(RangeError);
  });
});

describe("computeAtHash", () => {
  it("matches the OpenID Connect Core example", () => {
    expect(computeAtHash("jHkWEdUXMU1BwAsC4vtUsZwnNvTIxEl0z9K3vx5KF0Y")).toBe("77QmUPtjPfzWtF2AnpK9RQ");
  });
});

describe("signIdToken", () => {
  it("carries iss, sub, aud, exp, iat, nonce and at_hash, verifiable with the JWKS", async () => {
    const accessToken = await signAccessToken(accessInput());
    const idToken = await signIdToken({
      key,
      issuer: ISSUER,
      clientId: "app-1",
      subject: "profile-1",
      nonce: "n-0S6_WzA2Mj",
      accessToken,
      expiresInSeconds: 600,
      now: NOW,
    });
    const publicKey = await importJWK(key.publicJwk, "RS256");
    const { payload, protectedHeader } = await jwtVerify(idToken, publicKey, {
      issuer: ISSUER,
      audience: "app-1",
      currentDate: NOW,
    });
    expect(protectedHeader).toEqual({ alg: "RS256", typ: "JWT", kid: key.kid });
    expect(payload).toEqual({
      iss: ISSUER,
      sub: "profile-1",
      aud: "app-1",
      exp: NOW_S + 600,
      iat: NOW_S,
      nonce: "n-0S6_WzA2Mj",
      at_hash: computeAtHash(accessToken),
    });
  });

  it("omits nonce and at_hash when not given", async () => {
    const payload = decodeJwt(
      await signIdToken({ key, issuer: ISSUER, clientId: "app-1", subject: "p", expiresInSeconds: 600, now: NOW }),
    );
    expect(payload).not.toHaveProperty("nonce");
    expect(payload).not.toHaveProperty("at_hash");
  });

  it("adds extra claims but never lets them override registered ones", async () => {
    const payload = decodeJwt(
      await signIdToken({
        key,
        issuer: ISSUER,
        clientId: "app-1",
        subject: "profile-1",
        expiresInSeconds: 600,
        now: NOW,
        extraClaims: { name: "Ana", iss: "https://evil.example", sub: "root", aud: "x" },
      }),
    );
    expect(payload).toMatchObject({ name: "Ana", iss: ISSUER, sub: "profile-1", aud: "app-1" });
  });
});
