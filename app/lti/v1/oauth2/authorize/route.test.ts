// The authorization screen's route handlers with real Requests: the session comes from the
// (mocked) session reader; the decisions themselves are tested in
// lib/server/oauth/oauth-flow.test.ts.
import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import type { CurrentUser } from "@/lib/server/auth/current-user";
import { createOAuthWorld, TEST_ISSUER, type TOAuthWorld } from "@/test/fixtures/oauth";
import { setupTestDatabase } from "@/test/database";
import { GET as continueGet } from "@/app/oauth/continuar/route";
import { GET, POST } from "./route";
import { applicationPartner, partnerIdOf } from "@/test/fixtures/pairwise";

const current = vi.hoisted(() => ({ user: null as CurrentUser | null }));
vi.mock("@/lib/server/auth/current-user", () => ({ getCurrentUser: async () => current.user, getRequestUser: async () => current.user }));

setupTestDatabase();
let w: TOAuthWorld;

beforeAll(async () => {
  process.env.HUB_BASE_URL = TEST_ISSUER;
  process.env.HUB_SECRET = "authorize-route-test-secret-0123456789abcdef";
  resetEnvCache();
  w = await createOAuthWorld();
});
beforeEach(() => {
  current.user = null;
});

const signedInAs = (personId: string, profileId: string | null): CurrentUser => ({
  personId,
  name: "Ana Teste",
  profile: profileId ? { id: profileId, role: "professor", institution: { id: w.schoolA, name: "Escola A", kind: "school" } } : null,
});

const query = (extra: Record<string, string> = {}) =>
  new URLSearchParams({ client_id: w.app.clientId, redirect_uri: w.app.redirectUri, response_type: "code", scope: "user.info", state: "s1", ...extra });

const get = (path: string, headers: Record<string, string> = {}) => new Request(`${TEST_ISSUER}${path}`, { headers });

describe("GET /lti/v1/oauth2/authorize", () => {
  it("signed out: 302 to the sign-in page, which returns to /oauth/continuar with the request", async () => {
    const q = query();
    const response = await GET(get(`/lti/v1/oauth2/authorize?${q}`));
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`/login?callbackUrl=${encodeURIComponent(`/oauth/continuar?${q}`)}`);
    expect(response.headers.get("cache-control")).toBe("no-store");
  });

  it("unknown client and unregistered redirect URI: a 400 HTML error page, no Location, no CORS", async () => {
    for (const q of [query({ client_id: "nobody" }), query({ redirect_uri: "https://evil.example/" })]) {
      const response = await GET(get(`/lti/v1/oauth2/authorize?${q}`, { origin: "https://evil.example" }));
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
      expect(await response.text()).toContain('<html lang="pt-BR">');
    }
  });

  it("unknown scope: 302 to the client with error and state", async () => {
    const response = await GET(get(`/lti/v1/oauth2/authorize?${query({ scope: "everything" })}`));
    const location = new URL(response.headers.get("location")!);
    expect(location.searchParams.get("error")).toBe("invalid_scope");
    expect(location.searchParams.get("state")).toBe("s1");
  });

  it("signed in with one profile: 302 to the client with the code", async () => {
    current.user = signedInAs(w.soloPersonId, w.soloA);
    const response = await GET(get(`/lti/v1/oauth2/authorize?${query()}`));
    const location = new URL(response.headers.get("location")!);
    expect(location.origin + location.pathname).toBe(w.app.redirectUri);
    expect(location.searchParams.get("code")).toBeTruthy();
    expect(location.searchParams.get("user_id")).toBe(await partnerIdOf(applicationPartner(w.app.id), w.soloA));
  });

  it("signed in with several profiles: 302 to the picker", async () => {
    current.user = signedInAs(w.personId, w.teacherA);
    const response = await GET(get(`/lti/v1/oauth2/authorize?${query()}`));
    expect(response.headers.get("location")).toBe(`/oauth/escolher-perfil?${query()}`);
  });

  it("a client-router fetch (RSC) does nothing and makes the browser load the page for real", async () => {
    current.user = signedInAs(w.soloPersonId, w.soloA);
    const codes = await db().authorizationCode.count();
    const response = await GET(get(`/lti/v1/oauth2/authorize?${query()}&_rsc=abc`, { rsc: "1" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await db().authorizationCode.count()).toBe(codes);
  });
});

describe("GET /oauth/continuar", () => {
  it("after the picker: completes for the profile now in the session, ignoring the router marker", async () => {
    current.user = signedInAs(w.personId, w.guardianB);
    const response = await continueGet(get(`/oauth/continuar?${query()}&_rsc=1`));
    const location = new URL(response.headers.get("location")!);
    expect(location.searchParams.get("user_id")).toBe(await partnerIdOf(applicationPartner(w.app.id), w.guardianB));
    expect(location.searchParams.get("state")).toBe("s1");
  });

  it("a profile whose school has not enabled the application goes back to the picker", async () => {
    current.user = signedInAs(w.personId, w.studentC);
    const response = await continueGet(get(`/oauth/continuar?${query()}`));
    expect(response.headers.get("location")).toBe(`/oauth/escolher-perfil?${query()}`);
  });
});

describe("POST /lti/v1/oauth2/authorize", () => {
  it("answers JSON errors with no-store, never a 5xx", async () => {
    const response = await POST(new Request(`${TEST_ISSUER}/lti/v1/oauth2/authorize`, {
      method: "POST", headers: { "content-type": "application/json" }, body: '{"grant_type":"authorization_code"',
    }));
    expect(response.status).toBe(400);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ error: "invalid_request", error_description: "The body is not valid JSON" });
  });
});
