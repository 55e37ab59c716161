import { describe, expect, it } from "vitest";
import { generateCode, generateSecret, hashSecret, safeEqual } from "./secret";

describe("generateSecret", () => {
  it("is base64url of the requested number of bytes", () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(secret, "base64url")).toHaveLength(32);
    expect(Buffer.from(generateSecret(48), "base64url")).toHaveLength(48);
  });

  it("differs every call", () => {
    expect(generateSecret()).not.toBe(generateSecret());
  });

  it("refuses fewer than 128 bits", () => {
    expect(() => generateSecret(15)).toThrow(RangeError);
    expect(() => generateSecret(16.5)).toThrow(RangeError);
  });
});

describe("generateCode", () => {
  it("carries at least 128 bits", () => {
    const code = generateCode();
    expect(Buffer.from(code, "base64url").length * 8).toBeGreaterThanOrEqual(128);
    expect(code).not.toBe(generateCode());
  });
});

describe("hashSecret", () => {
  it("is SHA-256 hex", () => {
    expect(hashSecret("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});

describe("safeEqual", () => {
  it("compares strings of any length", () => {
    expect(safeEqual("secret", "secret")).toBe(true);
    expect(safeEqual("secret", "secreT")).toBe(false);
    expect(safeEqual("secret", "secret-longer")).toBe(false);
    expect(safeEqual("", "")).toBe(true);
  });
});
