import { describe, expect, it } from "vitest";
import { computeS256Challenge, createPkcePair, isValidCodeVerifier, verifyPkce } from "./pkce";

// RFC 7636 Appendix B.
const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";

describe("PKCE S256", () => {
  it("matches the RFC 7636 Appendix B vector", () => {
    expect(computeS256Challenge(VERIFIER)).toBe(CHALLENGE);
    expect(verifyPkce(VERIFIER, CHALLENGE, "S256")).toBe(true);
  });

  it("rejects a different verifier", () => {
    expect(verifyPkce(VERIFIER.replace("d", "e"), CHALLENGE, "S256")).toBe(false);
  });

  it("rejects the plain method even when verifier equals challenge", () => {
    const plain = "a".repeat(43);
    expect(verifyPkce(plain, plain, "plain" as "S256")).toBe(false);
  });

  it("rejects verifiers outside 43–128 unreserved characters", () => {
    expect(isValidCodeVerifier("a".repeat(42))).toBe(false);
    expect(isValidCodeVerifier("a".repeat(43))).toBe(true);
    expect(isValidCodeVerifier("a".repeat(128))).toBe(true);
    expect(isValidCodeVerifier("a".repeat(129))).toBe(false);
    expect(isValidCodeVerifier(`${"a".repeat(42)}+`)).toBe(false);
    const long = "a".repeat(129);
    expect(verifyPkce(long, computeS256Challenge(long), "S256")).toBe(false);
  });

  it("rejects a malformed stored challenge", () => {
    expect(verifyPkce(VERIFIER, `${CHALLENGE}=`, "S256")).toBe(false);
  });

  it("creates pairs that verify", () => {
    const pair = createPkcePair();
    expect(pair.method).toBe("S256");
    expect(isValidCodeVerifier(pair.verifier)).toBe(true);
    expect(verifyPkce(pair.verifier, pair.challenge, "S256")).toBe(true);
    expect(createPkcePair().verifier).not.toBe(pair.verifier);
  });
});
