import { describe, expect, it } from "vitest";
import { signatureBaseString } from "./base-string";
import { hmacSha1Signature } from "./hmac-sha1";

// Client credentials shared by the OAuth Core 1.0 Appendix A and RFC 5849 §1.2 examples.
const CLIENT_KEY = "dpf43f3p2l4k3l03";
const CLIENT_SECRET = "kd94hf93k423kf44";

describe("hmacSha1Signature", () => {
  it("OAuth Core 1.0 Appendix A.5.2: protected resource request", () => {
    // Published A.5.1 values: the access token is nnch734d00sl2jdk (secret pfkkdhi9sl3r4s00).
    const base = signatureBaseString("GET", "http://photos.example.net/photos?file=vacation.jpg&size=original", [
      ["oauth_consumer_key", CLIENT_KEY],
      ["oauth_token", "nnch734d00sl2jdk"],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "1191242096"],
      ["oauth_nonce", "kllo9940pd9333jh"],
      ["oauth_version", "1.0"],
    ]);
    expect(hmacSha1Signature(base, CLIENT_SECRET, "pfkkdhi9sl3r4s00")).toBe("tR3+Ty81lMeYAr/Fid0kMTYa/WM=");
  });

  it("RFC 5849 §1.2: temporary credentials request (no token, empty token secret)", () => {
    const base = signatureBaseString("POST", "https://photos.example.net/initiate", [
      ["oauth_consumer_key", CLIENT_KEY],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "137131200"],
      ["oauth_nonce", "wIjqoS"],
      ["oauth_callback", "http://printer.example.com/ready"],
    ]);
    expect(hmacSha1Signature(base, CLIENT_SECRET)).toBe("74KNZJeDHnMBp0EMJ9ZHt/XKycU=");
  });

  it("RFC 5849 §1.2: token request", () => {
    const base = signatureBaseString("POST", "https://photos.example.net/token", [
      ["oauth_consumer_key", CLIENT_KEY],
      ["oauth_token", "hh5s93j4hdidpola"],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "137131201"],
      ["oauth_nonce", "walatlh"],
      ["oauth_verifier", "hfdp7dh39dks9884"],
    ]);
    expect(hmacSha1Signature(base, CLIENT_SECRET, "hdhd0244k9j7ao03")).toBe("gKgrFCywp7rO0OXSjdot/IHF7IU=");
  });

  it("RFC 5849 §1.2: protected resource request", () => {
    const base = signatureBaseString("GET", "http://photos.example.net/photos?file=vacation.jpg&size=original", [
      ["oauth_consumer_key", CLIENT_KEY],
      ["oauth_token", "nnch734d00sl2jdk"],
      ["oauth_signature_method", "HMAC-SHA1"],
      ["oauth_timestamp", "137131202"],
      ["oauth_nonce", "chapoH"],
    ]);
    expect(hmacSha1Signature(base, CLIENT_SECRET, "pfkkdhi9sl3r4s00")).toBe("MdpQcU8iPSUjWoN/UDMsK2sui9I=");
  });

  it("encodes each secret so an & cannot move between consumer and token secret", () => {
    // Unencoded, both keys would be the same string "a&b&c".
    expect(hmacSha1Signature("base", "a&b", "c")).not.toBe(hmacSha1Signature("base", "a", "b&c"));
  });

  it("defaults the token secret to empty", () => {
    expect(hmacSha1Signature("base", "secret")).toBe(hmacSha1Signature("base", "secret", ""));
  });
});
