import { describe, expect, it } from "vitest";
import { safeCallbackUrl } from "./safe-callback-url";

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
