// The metrics' route families: each of the hub's route groups has its family, a partner channel's
// family has the access log's channel name, and no path adds a label value outside the set.
import { describe, expect, it } from "vitest";
import { staticSegments } from "@/lib/server/log.mjs";
import { ROUTE_FAMILIES, routeFamily, statusClass } from "./route-family.mjs";

// Part of Next's app-path-routes-manifest.json, as server.mjs reads it.
const known = staticSegments({
  "/page": "/",
  "/gestao/[institutionId]/page": "/gestao/[institutionId]",
  "/(portal)/ferramentas/[toolId]/page": "/ferramentas/[toolId]",
  "/desenvolvedor/page": "/desenvolvedor",
  "/perfil/page": "/perfil",
});

describe("routeFamily", () => {
  it.each([
    ["POST", "/lti/v1/oauth2/authorize", "oauth_token"],
    ["GET", "/lti/v1/oauth2/authorize?client_id=x&redirect_uri=y", "oauth_authorize"],
    ["GET", "/oauth/escolher-perfil", "oauth_authorize"],
    ["GET", "/users/v1/users/info", "user_info"],
    ["POST", "/users/v1/users/info", "user_info"],
    ["GET", "/launch/3f1c0c3e-8a4e-4f43-9d55-5a0f1b6c7d8e", "lti_launch"],
    ["POST", "/lti13/authorize", "lti13"],
    ["GET", "/manager/v1/data/3f1c0c3e-8a4e-4f43-9d55-5a0f1b6c7d8e?limit=10", "data_api"],
    ["GET", "/manager/v1/data", "data_api"],
    ["GET", "/manager/v1/summary/abc", "summary"],
    ["GET", "/manager/v1/usage/abc", "usage_api"],
    ["GET", "/manager/v2/data/abc", "other"],
    ["POST", "/ims/oneroster/token", "oneroster_token"],
    ["GET", "/ims/oneroster/rostering/v1p2/users", "oneroster"],
    ["GET", "/ims/oneroster/csv/v1p2/export", "oneroster"],
    ["GET", "/ims/other", "other"],
    ["GET", "/.well-known/jwks.json", "well_known"],
    ["POST", "/api/auth/callback/credentials", "sign_in"],
    ["GET", "/login", "sign_in"],
    ["GET", "/entrar/com/abc", "sign_in"],
    ["GET", "/cracha/token", "sign_in"],
    ["GET", "/assets/abc", "assets"],
    ["GET", "/_next/static/chunks/app.js", "next_static"],
    ["GET", "/healthz", "healthz"],
    ["POST", "/demo-tool/launch", "demo"],
    ["GET", "/", "pages"],
    ["GET", "/gestao/abc/turmas", "pages"],
    ["GET", "/ferramentas/abc", "pages"],
    ["GET", "/perfil", "pages"],
    ["GET", "/wp-login.php", "other"],
    ["GET", "/12345678901", "other"],
    ["GET", "/metrics", "other"],
  ])("%s %s → %s", (method, url, family) => {
    expect(routeFamily(method, url, known)).toBe(family);
  });

  it("answers only names of the set, whatever the path", () => {
    const paths = ["", "/", "//", "/a/b/c", "/manager", "/manager/v1", "/ims", "/lti", "/%ZZ", "/?x=1", "/manager/v1/data/" + "x".repeat(500)];
    for (const method of ["GET", "POST", undefined]) for (const path of paths) expect(ROUTE_FAMILIES).toContain(routeFamily(method, path, known));
  });

  it("names partner channels as the access log does", () => {
    for (const channel of ["data_api", "summary", "user_info", "lti_launch", "oneroster"]) expect(ROUTE_FAMILIES).toContain(channel);
  });
});

describe("statusClass", () => {
  it.each([
    [200, "2xx"],
    [204, "2xx"],
    [307, "3xx"],
    [404, "4xx"],
    [503, "5xx"],
    [0, "other"],
  ])("%i → %s", (status, name) => expect(statusClass(status)).toBe(name));
});
