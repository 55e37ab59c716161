// The node:crypto JOSE paths against the RFCs' published examples, and against jose (an independent
// implementation) in both directions.
import { createCipheriv, createSecretKey, generateKeyPairSync, randomBytes, type KeyObject } from "node:crypto";
import { compactVerify, EncryptJWT, exportJWK, generateKeyPair } from "jose";
import { describe, expect, it } from "vitest";
import { openDirectGcmCompact, rs256Signature, rs256SigningKey, signRs256Compact } from "./jose-compact";

// RFC 7515 Appendix A.2: the RSA key (n, e, d, p, q; the CRT exponents follow from them) and the
// RS256 signature of the example's signing input. RSASSA-PKCS1-v1_5 is deterministic, so a correct
// signer produces exactly these bytes.
const A2 = {
  n: "ofgWCuLjybRlzo0tZWJjNiuSfb4p4fAkd_wWJcyQoTbji9k0l8W26mPddxHmfHQp-Vaw-4qPCJrcS2mJPMEzP1Pt0Bm4d4QlL-yRT-SFd2lZS-pCgNMsD1W_YpRPEwOWvG6b32690r2jZ47soMZo9wGzjb_7OMg0LOL-bSf63kpaSHSXndS5z5rexMdbBYUsLA9e-KXBdQOS-UTo7WTBEMa2R2CapHg665xsmtdVMTBQY4uDZlxvb3qCo5ZwKh9kG4LT6_I5IhlJH7aGhyxXFvUK-DWNmoudF8NAco9_h9iaGNj8q2ethFkMLs91kzk2PAcDTW9gb54h4FRWyuXpoQ",
  e: "AQAB",
  d: "Eq5xpGnNCivDflJsRQBXHx1hdR1k6Ulwe2JZD50LpXyWPEAeP88vLNO97IjlA7_GQ5sLKMgvfTeXZx9SE-7YwVol2NXOoAJe46sui395IW_GO-pWJ1O0BkTGoVEn2bKVRUCgu-GjBVaYLU6f3l9kJfFNS3E0QbVdxzubSu3Mkqzjkn439X0M_V51gfpRLI9JYanrC4D4qAdGcopV_0ZHHzQlBjudU2QvXt4ehNYTCBr6XCLQUShb1juUO1ZdiYoFaFQT5Tw8bGUl_x_jTj3ccPDVZFD9pIuhLhBOneufuBiB4cS98l2SR_RQyGWSeWjnczT0QU91p1DhOVRuOopznQ",
  p: "4BzEEOtIpmVdVEZNCqS7baC4crd0pqnRH_5IB3jw3bcxGn6QLvnEtfdUdiYrqBdss1l58BQ3KhooKeQTa9AB0Hw_Py5PJdTJNPY8cQn7ouZ2KKDcmnPGBY5t7yLc1QlQ5xHdwW1VhvKn-nXqhJTBgIPgtldC-KDV5z-y2XDwGUc",
  q: "uQPEfgmVtjL0Uyyx88GZFF1fOunH3-7cepKmtH4pxhtCoHqpWmT8YAmZxaewHgHAjLYsp1ZSe7zFYHj7C6ul7TjeLQeZD_YwD66t62wDmpe_HlB-TnBA-njbglfIsRLtXlnDzQkv5dTltRJ11BKBBypeeF6689rjcJIDEz9RWdc",
  signingInput:
    "eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJqb2UiLA0KICJleHAiOjEzMDA4MTkzODAsDQogImh0dHA6Ly9leGFtcGxlLmNvbS9pc19yb290Ijp0cnVlfQ",
  signature:
    "cC4hiUPoj9Eetdgtv3hF80EGrhuB__dzERat0XF9g2VtQgr9PJbu3XOiZj5RZmh7AAuHIm4Bh-0Qc_lF5YKt_O8W2Fp5jujGbds9uJdbF9CUAr7t1dnZcAcQjbKBYNX4BAynRFdiuB--f_nZLgrnbyTyWzO75vRK5h6xBArLIARNPvkSjtQBMHlb1L07Qe7K0GarZRmB_eSN9383LcOLn6_dO--xi12jzDwusC-eOkHWEsqtFZESc6BfI7noOPqvhJ1phCnvWh6IeYI2w9QOYEUipUTI8np6LbgGY9Fs98rqVt5AXLIhWkWywlVmtVrBp0igcN_IoypGlUPQGe77Rw",
};

const toBigInt = (b64u: string) => BigInt(`0x${Buffer.from(b64u, "base64url").toString("hex")}`);
function toB64u(value: bigint): string {
  const hex = value.toString(16);
  return Buffer.from(hex.length % 2 ? `0${hex}` : hex, "hex").toString("base64url");
}
function modInverse(a: bigint, m: bigint): bigint {
  let [r0, r1, s0, s1] = [a % m, m, 1n, 0n];
  while (r1 !== 0n) {
    const q = r0 / r1;
    [r0, r1, s0, s1] = [r1, r0 - q * r1, s1, s0 - q * s1];
  }
  return ((s0 % m) + m) % m;
}

/** The A.2 key as a private JWK, with the CRT members node:crypto needs computed from d, p and q. */
function a2PrivateJwk() {
  const [d, p, q] = [toBigInt(A2.d), toBigInt(A2.p), toBigInt(A2.q)];
  return { kty: "RSA", n: A2.n, e: A2.e, d: A2.d, p: A2.p, q: A2.q, dp: toB64u(d % (p - 1n)), dq: toB64u(d % (q - 1n)), qi: toB64u(modInverse(q, p)) };
}

describe("RS256 compact JWS", () => {
  it("signs the RFC 7515 A.2 example's input to exactly the published signature", () => {
    expect(rs256Signature(A2.signingInput, rs256SigningKey(a2PrivateJwk()))).toBe(A2.signature);
  });

  it("produces tokens jose verifies, with the header given after alg", async () => {
    const { privateKey, publicKey } = await generateKeyPair("RS256", { extractable: true });
    const token = signRs256Compact({ typ: "at+jwt", kid: "k1" }, { sub: "ana", n: 1 }, rs256SigningKey(await exportJWK(privateKey)));
    const { payload, protectedHeader } = await compactVerify(token, publicKey, { algorithms: ["RS256"] });
    expect(protectedHeader).toEqual({ alg: "RS256", typ: "at+jwt", kid: "k1" });
    expect(JSON.parse(Buffer.from(payload).toString("utf8"))).toEqual({ sub: "ana", n: 1 });
    expect(Object.keys(protectedHeader)[0]).toBe("alg");
  });

  it("refuses keys RS256 must not use: public, short, or not RSA", () => {
    const jwk = (key: KeyObject) => key.export({ format: "jwk" });
    const short = generateKeyPairSync("rsa", { modulusLength: 1024 });
    expect(() => rs256SigningKey(jwk(short.publicKey))).toThrow();
    expect(() => rs256SigningKey(jwk(short.privateKey))).toThrow(/2048/);
    expect(() => rs256SigningKey(jwk(generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey))).toThrow(/RSA/);
  });
});

// RFC 7520 §5.6 ("Direct Encryption Using AES-GCM"): Figure 130's key, Figure 136's JWE, Figure 72's plaintext.
const RFC7520_KEY = "XctOhJAkA-pD9Lh7ZgW_2A";
const RFC7520_JWE =
  "eyJhbGciOiJkaXIiLCJraWQiOiI3N2M3ZTJiOC02ZTEzLTQ1Y2YtODY3Mi02MTdiNWI0NTI0M2EiLCJlbmMiOiJBMTI4R0NNIn0..refa467QzzKx6QAB.JW_i_f52hww_ELQPGaYyeAB6HYGcR559l9TYnSovc23XJoBcW29rHP8yZOZG7YhLpT1bjFuvZPjQS-m0IFtVcXkZXdH_lr_FrdYt9HRUYkshtrMmIUAyGmUnd9zMDB2n0cRDIHAzFVeJUDxkUwVAE7_YGRPdcqMyiBoCO-FBdE-Nceb4h3-FtBP-c_BIwCPTjb9o0SbdcdREEMJMyZBH8ySWMVi1gPD9yxi-aQpGbSv_F9N4IZAxscj5g-NJsUPbjk29-s7LJAGb15wEBtXphVCgyy53CoIKLHHeJHXex45Uz9aKZSRSInZI-wjsY0yu3cT4_aQ3i1o-tiE-F8Ios61EKgyIQ4CWao8PFMj8TTnp.vbb32Xvllea2OtmHAdccRQ";
const RFC7520_PLAINTEXT =
  "You can trust us to stick with you through thick and thin\u2013to the bitter end. And you can trust us to keep any secret of yours\u2013closer than you keep it yourself. But you cannot trust us to let you face trouble alone, and go off without a word. We are your friends, Frodo.";

/** A dir JWE made by hand, so a test can put in its header what no library would write. */
function sealByHand(header: object, plaintext: string, raw: Buffer): string {
  const protectedHeader = Buffer.from(JSON.stringify(header)).toString("base64url");
  const iv = randomBytes(12);
  const cipher = createCipheriv(`aes-${raw.length * 8}-gcm` as "aes-256-gcm", raw, iv);
  cipher.setAAD(Buffer.from(protectedHeader, "ascii"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [protectedHeader, "", iv.toString("base64url"), ciphertext.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".");
}

describe("direct AES-GCM compact JWE", () => {
  const rfcKey = createSecretKey(Buffer.from(RFC7520_KEY, "base64url"));

  it("opens the RFC 7520 §5.6 example to its plaintext", () => {
    expect(openDirectGcmCompact(RFC7520_JWE, rfcKey)?.toString("utf8")).toBe(RFC7520_PLAINTEXT);
  });

  it("opens what jose seals (dir, A256GCM)", async () => {
    const raw = randomBytes(32);
    const sealed = await new EncryptJWT({ sub: "ana" }).setProtectedHeader({ alg: "dir", enc: "A256GCM" }).encrypt(raw);
    expect(JSON.parse(openDirectGcmCompact(sealed, createSecretKey(raw))!.toString("utf8"))).toEqual({ sub: "ana" });
  });

  it("refuses a key of another length than the enc, another key, and any altered segment", () => {
    expect(openDirectGcmCompact(RFC7520_JWE, createSecretKey(randomBytes(32)))).toBeNull();
    expect(openDirectGcmCompact(RFC7520_JWE, createSecretKey(randomBytes(16)))).toBeNull();
    const parts = RFC7520_JWE.split(".");
    for (const index of [0, 2, 3, 4]) {
      const altered = [...parts];
      const segment = altered[index]!;
      altered[index] = segment.slice(0, 5) + (segment[5] === "A" ? "B" : "A") + segment.slice(6);
      expect(openDirectGcmCompact(altered.join("."), rfcKey), `segment ${index}`).toBeNull();
    }
  });

  it("refuses what is not plain base64url, an encrypted key, or the wrong number of segments", () => {
    const parts = RFC7520_JWE.split(".");
    expect(openDirectGcmCompact([...parts.slice(0, 4), `${parts[4]}=`].join("."), rfcKey)).toBeNull();
    expect(openDirectGcmCompact([...parts.slice(0, 4), `${parts[4]}!`].join("."), rfcKey)).toBeNull();
    expect(openDirectGcmCompact([parts[0], "AAAA", ...parts.slice(2)].join("."), rfcKey)).toBeNull();
    expect(openDirectGcmCompact(parts.slice(0, 4).join("."), rfcKey)).toBeNull();
    expect(openDirectGcmCompact("", rfcKey)).toBeNull();
  });

  it("refuses another alg or enc, compression, critical extensions, and IVs or tags of other sizes, even when authentic", () => {
    const raw = randomBytes(32);
    const key = createSecretKey(raw);
    expect(openDirectGcmCompact(sealByHand({ alg: "dir", enc: "A256GCM" }, "{}", raw), key)?.toString()).toBe("{}");
    for (const header of [
      { alg: "A256KW", enc: "A256GCM" },
      { alg: "dir", enc: "A128GCM" },
      { alg: "dir", enc: "A256GCM", zip: "DEF" },
      { alg: "dir", enc: "A256GCM", crit: ["exp"], exp: 1 },
    ]) {
      expect(openDirectGcmCompact(sealByHand(header, "{}", raw), key), JSON.stringify(header)).toBeNull();
    }
    const [header, , iv, ciphertext, tag] = sealByHand({ alg: "dir", enc: "A256GCM" }, "{}", raw).split(".");
    expect(openDirectGcmCompact([header, "", `${iv}AAAA`, ciphertext, tag].join("."), key)).toBeNull();
    expect(openDirectGcmCompact([header, "", iv, ciphertext, tag!.slice(0, 16)].join("."), key)).toBeNull();
  });
});
