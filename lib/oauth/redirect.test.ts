import { describe, expect, it } from "vitest";
import { buildRedirect } from "./redirect";

describe("buildRedirect", () => {
  const tricky = "a b&c=d/é%";

  it("returns state byte-identical through decodeURIComponent (query)", () => {
    const location = buildRedirect("https://app.example/cb", { code: "abc", state: tricky }, "query");
    expect(location).toBe("https://app.example/cb?code=abc&state=a%20b%26c%3Dd%2F%C3%A9%25");
    const url = new URL(location);
    expect(url.searchParams.get("state")).toBe(tricky);
    const raw = /state=([^&]*)/.exec(url.search)?.[1] ?? "";
    expect(decodeURIComponent(raw)).toBe(tricky);
  });

  it("returns state byte-identical in the fragment", () => {
    const location = buildRedirect("https://app.example/cb", { access_token: "t", state: tricky }, "fragment");
    const fragment = new URL(location).hash.slice(1);
    expect(new URLSearchParams(fragment).get("state")).toBe(tricky);
    expect(fragment).toBe("access_token=t&state=a%20b%26c%3Dd%2F%C3%A9%25");
  });

  it("keeps the redirect URI's own query verbatim (RFC 6749 §3.1.2)", () => {
    expect(buildRedirect("https://app.example/cb?tenant=a%2Fb&x=1", { code: "c" }, "query")).toBe(
      "https://app.example/cb?tenant=a%2Fb&x=1&code=c",
    );
    expect(buildRedirect("https://app.example/cb?", { code: "c" }, "query")).toBe("https://app.example/cb?code=c");
    expect(buildRedirect("https://app.example/cb?tenant=a", { access_token: "t" }, "fragment")).toBe(
      "https://app.example/cb?tenant=a#access_token=t",
    );
  });

  it("drops undefined values and keeps empty strings", () => {
    expect(buildRedirect("https://app.example/cb", { code: "c", state: undefined, x: "" }, "query")).toBe(
      "https://app.example/cb?code=c&x=",
    );
  });

  it("returns the URI untouched when there is nothing to add", () => {
    expect(buildRedirect("https://app.example/cb?a=1", { state: undefined }, "query")).toBe("https://app.example/cb?a=1");
  });

  it("never emits a second fragment", () => {
    expect(buildRedirect("https://app.example/cb#old", { access_token: "t" }, "fragment")).toBe(
      "https://app.example/cb#access_token=t",
    );
  });
});
