import { describe, expect, it } from "vitest";
import { percentEncode } from "./percent-encode";

describe("percentEncode (RFC 5849 §3.6)", () => {
  it("keeps every unreserved character (ALPHA DIGIT - . _ ~)", () => {
    const unreserved = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";
    expect(percentEncode(unreserved)).toBe(unreserved);
  });

  it("encodes the characters encodeURIComponent leaves alone", () => {
    expect(percentEncode("!'()*")).toBe("%21%27%28%29%2A");
  });

  it("encodes a space as %20, never +", () => {
    expect(percentEncode("a b+c")).toBe("a%20b%2Bc");
  });

  it("encodes reserved delimiters with uppercase hex", () => {
    expect(percentEncode("=&/?:@%")).toBe("%3D%26%2F%3F%3A%40%25");
  });

  it("encodes control bytes with two hex digits", () => {
    expect(percentEncode("\n\u0000")).toBe("%0A%00");
  });

  it("encodes non-ASCII as UTF-8 bytes", () => {
    expect(percentEncode("ã")).toBe("%C3%A3");
    expect(percentEncode("€")).toBe("%E2%82%AC");
    expect(percentEncode("😀")).toBe("%F0%9F%98%80");
  });

  it("returns an empty string for an empty value", () => {
    expect(percentEncode("")).toBe("");
  });
});
