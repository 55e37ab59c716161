import { describe, expect, it } from "vitest";
import { MAX_RETURN_URL_ENCODED, safeCallbackUrl, withCallbackUrl } from "./safe-callback-url";

describe("safeCallbackUrl", () => {
  it("keeps a path on the hub, with its query and fragment", () => {
    expect(safeCallbackUrl("/oauth/continuar?client_id=demo-app&state=a%20b")).toBe("/oauth/continuar?client_id=demo-app&state=a%20b");
    expect(safeCallbackUrl("/perfil#x")).toBe("/perfil#x");
    expect(safeCallbackUrl(["/gestao", "/x"])).toBe("/gestao");
  });

  it.each([
    ["tab", "/\t/evil.example"],
    ["carriage return", "/\r/evil.example"],
    ["line feed", "/\n/evil.example"],
    ["backslash", "/\\evil.example"],
    ["backslash after a slash", "/\\/evil.example"],
    ["scheme-relative", "//evil.example"],
    ["absolute", "https://evil.example/"],
    ["javascript:", "javascript:alert(1)"],
    ["space", "/ /evil.example"],
    ["NUL", "/\u0000/evil.example"],
    ["empty", ""],
  ])("refuses a %s target", (_name, value) => {
    expect(safeCallbackUrl(value)).toBe("/");
  });

  it("leaves encoded slashes encoded, on the hub", () => {
    expect(safeCallbackUrl("/%2F%2Fevil.example")).toBe("/%2F%2Fevil.example");
    expect(safeCallbackUrl("/%5Cevil.example")).toBe("/%5Cevil.example");
  });

  it("uses the fallback given", () => {
    expect(safeCallbackUrl(undefined, "/gestao")).toBe("/gestao");
  });
});

describe("withCallbackUrl", () => {
  it("carries a safe return address, encoded, with extra parameters after it", () => {
    expect(withCallbackUrl("/login", "/oauth/continuar?a=1&b=2")).toBe("/login?callbackUrl=%2Foauth%2Fcontinuar%3Fa%3D1%26b%3D2");
    expect(withCallbackUrl("/perfil", "/x", { trocar: "1" })).toBe("/perfil?callbackUrl=%2Fx&trocar=1");
  });

  it("replaces an unsafe one by the home page, and drops one too long for a Location header", () => {
    expect(withCallbackUrl("/login", "//evil.example")).toBe("/login?callbackUrl=%2F");
    const long = `/gestao?q=${"%41".repeat(MAX_RETURN_URL_ENCODED)}`;
    expect(withCallbackUrl("/login", long, { error: "x" })).toBe("/login?callbackUrl=%2F&error=x");
    expect(withCallbackUrl("/login", `/gestao?q=${"a".repeat(MAX_RETURN_URL_ENCODED - 30)}`).length).toBeLessThan(MAX_RETURN_URL_ENCODED + 30);
  });
});
