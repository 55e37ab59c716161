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

  it("encodes a lone surrogate as U+FFFD's UTF-8 bytes, as any UTF-8 encoder of the string would", () => {
    expect(percentEncode("a\uD800b")).toBe("a%EF%BF%BDb");
    expect(percentEncode("\uDFFF")).toBe("%EF%BF%BD");
  });

  it("agrees, on every code point of a random sample, with encoding each UTF-8 byte by the definition", () => {
    const byDefinition = (value: string) =>
      [...Buffer.from(value, "utf8")].map((b) => (/[A-Za-z0-9\-._~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, "0")}`)).join("");
    const points = [...Array.from({ length: 128 }, (_, i) => i), 0x7ff, 0x800, 0xfffd, 0xffff, 0x10000, 0x10ffff];
    for (let i = 0; i < 2000; i++) points.push(Math.floor(Math.random() * 0x110000));
    for (const point of points) {
      const value = point >= 0xd800 && point <= 0xdfff ? String.fromCharCode(point) : String.fromCodePoint(point);
      expect(percentEncode(`x${value}y`)).toBe(byDefinition(`x${value}y`));
    }
  });
});
