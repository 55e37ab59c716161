import { describe, expect, it } from "vitest";
import { isLoopbackHost, urlProblem, ZApplicationFieldsSchema, ZRedirectUrisSchema, ZSharedSecret, ZToolFieldsSchema } from "./developer";

describe("isLoopbackHost", () => {
  it.each(["localhost", "LOCALHOST", "app.localhost", "127.0.0.1", "127.8.9.10", "[::1]", "localhost."])("%s is loopback", (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });
  it.each(["example.com", "localhost.example.com", "10.0.0.1", "128.0.0.1", "[::2]", "127.0.0.1.nip.io"])("%s is not", (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe("urlProblem", () => {
  it("accepts https anywhere and http only on loopback hosts", () => {
    expect(urlProblem("https://tool.example.com/lti/launch?course=7", "launch")).toBeNull();
    expect(urlProblem("http://localhost:3000/launch", "launch")).toBeNull();
    expect(urlProblem("http://127.0.0.1:8080/cb", "redirect")).toBeNull();
    expect(urlProblem("http://[::1]:8080/cb", "redirect")).toBeNull();
    expect(urlProblem("http://tool.example.com/launch", "launch")).toMatch(/https/);
    expect(urlProblem("http://localhost/site", "site")).toMatch(/https/);
  });
  it.each([
    ["ftp://tool.example.com/l", /https/],
    ["javascript:alert(1)", /https/],
    ["tool.example.com/launch", /completo/],
    ["/launch", /completo/],
    ["https://user:pw@tool.example.com/l", /usuário/],
    ["https://tool.example.com/l#x", /fragmento/],
    ["https://tool.example.com/l?oauth_nonce=1", /oauth_nonce/],
    ["https://tool.example.com/a b", /espaços/],
    [`https://tool.example.com/${"a".repeat(2001)}`, /longo/],
  ])("refuses %s", (url, message) => {
    expect(urlProblem(url, "launch")).toMatch(message);
  });
  it("allows a fragment on the site URL only", () => {
    expect(urlProblem("https://edtech.example/#produtos", "site")).toBeNull();
    expect(urlProblem("https://app.example/cb#x", "redirect")).toMatch(/fragmento/);
  });
});

describe("ZToolFieldsSchema", () => {
  const good = {
    title: " Frações ",
    shortDescription: "Atividades",
    longDescription: "Longa",
    siteUrl: "https://edtech.example",
    launchUrl: "https://edtech.example/lti",
    consumerKey: "key-1",
  };
  it("trims and accepts a complete tool", () => {
    expect(ZToolFieldsSchema.parse(good).title).toBe("Frações");
  });
  it("names each missing field", () => {
    const result = ZToolFieldsSchema.safeParse({});
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((i) => i.path[0]);
    expect(new Set(paths)).toEqual(new Set(["title", "shortDescription", "longDescription", "siteUrl", "launchUrl", "consumerKey"]));
  });
  it("refuses a consumer key with spaces or accents", () => {
    expect(ZToolFieldsSchema.safeParse({ ...good, consumerKey: "minha chave" }).success).toBe(false);
    expect(ZToolFieldsSchema.safeParse({ ...good, consumerKey: "chave-ção" }).success).toBe(false);
  });
});

describe("ZSharedSecret", () => {
  it("needs 16 characters, no surrounding blanks, no control characters", () => {
    expect(ZSharedSecret.safeParse("demo-tool-secret").success).toBe(true);
    expect(ZSharedSecret.safeParse("short").success).toBe(false);
    expect(ZSharedSecret.safeParse(" demo-tool-secret").success).toBe(false);
    expect(ZSharedSecret.safeParse("demo-tool\nsecret!").success).toBe(false);
  });
});

describe("ZRedirectUrisSchema", () => {
  it("splits lines, drops blanks and keeps each URI exactly as typed", () => {
    expect(ZRedirectUrisSchema.parse("https://app.example/cb?x=1\r\n\n  http://localhost:3000/callback  \n")).toEqual([
      "https://app.example/cb?x=1",
      "http://localhost:3000/callback",
    ]);
  });
  it("refuses none, duplicates, fragments, relative and non-https URIs, naming the URI", () => {
    expect(ZRedirectUrisSchema.safeParse("\n").success).toBe(false);
    expect(ZRedirectUrisSchema.safeParse("https://a.example/cb\nhttps://a.example/cb").success).toBe(false);
    const bad = ZRedirectUrisSchema.safeParse("https://a.example/cb#frag\n/callback\nhttp://a.example/cb");
    expect(bad.success).toBe(false);
    const messages = bad.error!.issues.map((i) => i.message).join(" | ");
    expect(messages).toContain("https://a.example/cb#frag:");
    expect(messages).toContain("/callback:");
    expect(messages).toContain("http://a.example/cb:");
  });
  it("allows at most 10", () => {
    const many = Array.from({ length: 11 }, (_, i) => `https://a.example/cb${i}`).join("\n");
    expect(ZRedirectUrisSchema.safeParse(many).success).toBe(false);
  });
});

describe("ZApplicationFieldsSchema", () => {
  it("needs a name and a valid response type; home page optional but https", () => {
    const base = { name: "App", redirectUris: "https://a.example/cb", defaultResponseType: "code" };
    const parsed = ZApplicationFieldsSchema.parse(base);
    expect(parsed).toMatchObject({ name: "App", description: "", redirectUris: ["https://a.example/cb"] });
    expect(parsed.homepageUrl).toBeUndefined();
    expect(ZApplicationFieldsSchema.safeParse({ ...base, defaultResponseType: "token" }).success).toBe(false);
    expect(ZApplicationFieldsSchema.safeParse({ ...base, name: " " }).success).toBe(false);
    expect(ZApplicationFieldsSchema.safeParse({ ...base, homepageUrl: "http://a.example" }).success).toBe(false);
    expect(ZApplicationFieldsSchema.parse({ ...base, homepageUrl: "" }).homepageUrl).toBeUndefined();
    // The seeded demo application lives on the hub itself during local development.
    expect(ZApplicationFieldsSchema.parse({ ...base, homepageUrl: "http://localhost:3000/demo-app" }).homepageUrl).toBe("http://localhost:3000/demo-app");
  });
});
