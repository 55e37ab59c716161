// A page asked for at another address of the hub goes to the base URL (base-url-redirect.mjs);
// route handlers, Next's assets and requests through a reverse proxy stay where they were asked.
import { describe, expect, it } from "vitest";
import { baseUrlRedirect, parseBaseUrl } from "./base-url-redirect.mjs";
import { trustedProxies } from "./client-address.mjs";
import { routeHandlerMatcher } from "./request-guard.mjs";

const isRouteHandler = routeHandlerMatcher({
  "/page": "/",
  "/login/page": "/login",
  "/gestao/[institutionId]/page": "/gestao/[institutionId]",
  "/(portal)/launch/[placementId]/route": "/launch/[placementId]",
  "/healthz/route": "/healthz",
  "/.well-known/openid-configuration/route": "/.well-known/openid-configuration",
  "/entrar/route": "/entrar",
  "/manager/v1/data/[orgId]/route": "/manager/v1/data/[orgId]",
});

function redirectFor(baseUrl: string, trust = trustedProxies(undefined)) {
  return baseUrlRedirect({ baseUrl: parseBaseUrl(baseUrl), isRouteHandler, trust });
}

const toLocalhost = redirectFor("http://localhost:3100");
const at = (host: string | undefined, url: string, more: { method?: string; headers?: Record<string, string>; peer?: string } = {}) =>
  toLocalhost({ method: more.method ?? "GET", url, headers: { ...(host === undefined ? {} : { host }), ...more.headers }, socket: { remoteAddress: more.peer ?? "127.0.0.1" } });

describe("baseUrlRedirect", () => {
  it("sends a page asked for at another host to the base URL's origin, with the same path and query", () => {
    expect(at("127.0.0.1:3100", "/login")).toBe("http://localhost:3100/login");
    expect(at("127.0.0.1:3100", "/login?callbackUrl=%2Fperfil&erro=x")).toBe("http://localhost:3100/login?callbackUrl=%2Fperfil&erro=x");
    expect(at("127.0.0.1:3100", "/")).toBe("http://localhost:3100/");
    expect(at("10.0.0.5:3100", "/gestao/abc", { method: "HEAD" })).toBe("http://localhost:3100/gestao/abc");
    // A path that matches no route is Next's not-found page, a page too.
    expect(at("127.0.0.1:3100", "/nada-aqui")).toBe("http://localhost:3100/nada-aqui");
  });

  it("sends the launch page, a route handler a person opens, to the base URL too", () => {
    expect(at("127.0.0.1:3100", "/launch/5c1f0e9a")).toBe("http://localhost:3100/launch/5c1f0e9a");
  });

  it("keeps a scheme-relative looking path on the base URL's origin", () => {
    expect(at("127.0.0.1:3100", "//evil.example/x")).toBe("http://localhost:3100//evil.example/x");
  });

  it("leaves the base URL's own host alone, whatever its case and the scheme's default port", () => {
    expect(at("localhost:3100", "/login")).toBeNull();
    expect(at("LocalHost:3100", "/login")).toBeNull();
    const https = redirectFor("https://hub.escola.example");
    const request = (host: string) => https({ method: "GET", url: "/login", headers: { host }, socket: { remoteAddress: "198.51.100.7" } });
    expect(request("hub.escola.example")).toBeNull();
    expect(request("hub.escola.example:443")).toBeNull();
    expect(request("hub.escola.example:8443")).toBe("https://hub.escola.example/login");
    expect(request("203.0.113.10")).toBe("https://hub.escola.example/login");
  });

  it("leaves route handlers (APIs, protocol endpoints, health) and Next's assets where they were asked", () => {
    for (const url of ["/healthz", "/.well-known/openid-configuration", "/manager/v1/data/abc?limit=10", "/_next/static/chunks/app.js"]) {
      expect(at("127.0.0.1:3100", url), url).toBeNull();
    }
  });

  it("redirects only GET and HEAD: a POST's body would be lost or resent", () => {
    expect(at("127.0.0.1:3100", "/login", { method: "POST" })).toBeNull();
    expect(at("127.0.0.1:3100", "/entrar", { method: "POST" })).toBeNull();
  });

  it("does not redirect behind a reverse proxy: X-Forwarded-Host, or a peer HUB_TRUSTED_PROXIES names", () => {
    expect(at("10.0.0.2:3100", "/login", { headers: { "x-forwarded-host": "hub.escola.example" } })).toBeNull();
    const behindProxy = redirectFor("https://hub.escola.example", trustedProxies("10.0.0.0/8"));
    const request = (peer: string) => behindProxy({ method: "GET", url: "/login", headers: { host: "10.0.0.9:3000" }, socket: { remoteAddress: peer } });
    expect(request("10.0.0.1")).toBeNull();
    expect(request("::ffff:10.0.0.1")).toBeNull();
    expect(request("198.51.100.7")).toBe("https://hub.escola.example/login");
  });

  it("does not guess without a Host header or with an absolute-form target", () => {
    expect(at(undefined, "/login")).toBeNull();
    expect(at("127.0.0.1:3100", "http://127.0.0.1:3100/login")).toBeNull();
  });
});

describe("parseBaseUrl", () => {
  it("names HUB_BASE_URL when it is not a URL", () => {
    expect(() => parseBaseUrl("hub.escola.example")).toThrow(/HUB_BASE_URL: "hub\.escola\.example" is not a URL/);
    expect(parseBaseUrl("http://localhost:3000").host).toBe("localhost:3000");
  });
});
