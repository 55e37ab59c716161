// The OAuth 2 sign-in end to end: the authorization screen's decisions (decideAuthorization, the
// service behind GET /lti/v1/oauth2/authorize, given a signed-in session), then the machine
// endpoints through their real route handlers with plain fetch-style Requests (hubFetch):
// discovery, JWKS, token exchange and user info. One describe per endpoint, one test per rule of
// the issue's acceptance list.
import { createLocalJWKSet, decodeJwt, jwtVerify, type JWK } from "jose";
import { beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/server/db/database";
import { resetEnvCache } from "@/lib/env";
import { computeAtHash } from "@/lib/oauth/jwt";
import { createPkcePair } from "@/lib/oauth/pkce";
import { hashSecret } from "@/lib/oauth/secret";
import { pseudonymize } from "@/lib/server/data-api/pseudonym";
import { applicationPartner, partnerIdOf } from "@/test/fixtures/pairwise";
import { setupTestDatabase } from "@/test/database";
import { toWebResponse } from "@/lib/server/http/plain-endpoint";
import { toAuthorizationResult } from "./authorization-http";
import { decideAuthorization, type TSessionRef } from "./decide-authorization";
import { issueCode } from "./issue-code";
import { issueTokens } from "./issue-tokens";
import { getUserInfo } from "./get-user-info";
import { OAuthError } from "@/lib/oauth/errors";
import { prepareProfileChoice } from "./prepare-profile-choice";
import { createOAuthWorld, hubFetch, TEST_ISSUER, type TOAuthWorld, type TTestApp } from "@/test/fixtures/oauth";

setupTestDatabase();
let w: TOAuthWorld;

beforeAll(async () => {
  process.env.HUB_BASE_URL = TEST_ISSUER;
  process.env.HUB_SECRET = "oauth-flow-test-secret-0123456789abcdef";
  resetEnvCache();
  w = await createOAuthWorld();
});

// ---------------------------------------------------------------- helpers

type Params = Record<string, string>;

const baseParams = (app: TTestApp = w.app, extra: Params = {}): Params => ({
  client_id: app.clientId, redirect_uri: app.redirectUri, response_type: "code", scope: "user.info", state: "st ate/+é", ...extra,
});

const session = (profileId: string | null, personId = w.personId): TSessionRef => ({ personId, profileId });

/** The browser step: the signed-in person confirmed `profileId` (the continuation after the picker). */
async function authorizeAs(profileId: string, params: Params): Promise<URL> {
  const person = profileId === w.soloA ? w.soloPersonId : w.personId;
  const outcome = await decideAuthorization({ query: new URLSearchParams(params), session: session(profileId, person), step: "continue" });
  if (outcome.kind !== "redirect") throw new Error(`expected a redirect, got ${outcome.kind}`);
  return new URL(outcome.location);
}

async function codeFor(options: { app?: TTestApp; profileId?: string; pkce?: boolean; nonce?: string } = {}) {
  const app = options.app ?? w.app;
  const pkce = createPkcePair();
  const extra: Params = options.pkce === false ? {} : { code_challenge: pkce.challenge, code_challenge_method: "S256" };
  if (options.nonce) extra.nonce = options.nonce;
  const location = await authorizeAs(options.profileId ?? w.teacherA, baseParams(app, extra));
  return { code: location.searchParams.get("code") ?? "", verifier: pkce.verifier, location, app };
}

async function token(body: unknown, init: { basic?: [string, string]; contentType?: string } = {}) {
  const headers: Record<string, string> = { accept: "application/json" };
  headers["content-type"] = init.contentType ?? (body instanceof URLSearchParams ? "application/x-www-form-urlencoded" : "application/json");
  if (init.basic) headers.authorization = `Basic ${Buffer.from(init.basic.map(encodeURIComponent).join(":")).toString("base64")}`;
  const payload = typeof body === "string" ? body : body instanceof URLSearchParams ? body.toString() : JSON.stringify(body);
  const response = await hubFetch(`${TEST_ISSUER}/lti/v1/oauth2/authorize`, { method: "POST", headers, body: payload });
  return { response, body: (await response.json()) as Record<string, unknown> };
}

/** The spec's JSON body: grant_type, client_id, client_secret, code. */
const specBody = (app: TTestApp, code: string, extra: Params = {}) => ({
  grant_type: "authorization_code", client_id: app.clientId, client_secret: app.clientSecret, code, ...extra,
});

/** The application's (pairwise) id of a profile: what its redirects, tokens and user info carry. */
const pw = (profileId: string) => partnerIdOf(applicationPartner(w.app.id), profileId);

async function userInfo(accessToken: string, relationshipId?: string, bearer = true) {
  const headers: Record<string, string> = { accept: "application/json", authorization: bearer ? `Bearer ${accessToken}` : accessToken };
  if (relationshipId !== undefined) headers["x-relationship-id"] = relationshipId;
  const response = await hubFetch(`${TEST_ISSUER}/users/v1/users/info`, { headers });
  return { response, body: (await response.json()) as Record<string, unknown> };
}

async function jwks() {
  const response = await hubFetch(`${TEST_ISSUER}/.well-known/jwks.json`);
  return createLocalJWKSet((await response.json()) as { keys: JWK[] });
}

const fragmentOf = (url: URL) => new URLSearchParams(url.hash.slice(1));

// ---------------------------------------------------------------- authorization screen

describe("GET /lti/v1/oauth2/authorize: validation", () => {
  it("clientKnown: an unknown client gets an error page, never a redirect", async () => {
    const outcome = await decideAuthorization({ query: new URLSearchParams(baseParams(w.app, { client_id: "nobody" })), session: session(w.teacherA), step: "authorize" });
    expect(outcome).toMatchObject({ kind: "error_page", error: { code: "invalid_client" } });
    const response = toWebResponse(toAuthorizationResult(outcome));
    expect(response.status).toBe(400);
    expect(response.headers.get("location")).toBeNull();
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(await response.text()).toContain("Aplicativo não reconhecido");
  });

  it("redirectUriRegistered: an unregistered (or merely prefixed) redirect URI gets an error page, never a redirect", async () => {
    for (const redirect_uri of ["https://evil.example/callback", `${w.app.redirectUri}/extra`, `${w.app.redirectUri}?x=1`]) {
      const outcome = await decideAuthorization({ query: new URLSearchParams(baseParams(w.app, { redirect_uri })), session: null, step: "authorize" });
      expect(outcome).toMatchObject({ kind: "error_page", error: { code: "invalid_request" } });
      const response = toWebResponse(toAuthorizationResult(outcome));
      expect(response.status).toBe(400);
      expect(response.headers.get("location")).toBeNull();
      expect(await response.text()).toContain("Endereço de retorno não autorizado");
    }
  });

  it("a repeated parameter is refused with an error page (RFC 6749 §3.1)", async () => {
    const query = new URLSearchParams(baseParams());
    query.append("redirect_uri", "https://evil.example/callback");
    expect(await decideAuthorization({ query, session: null, step: "authorize" })).toMatchObject({ kind: "error_page" });
  });

  it("responseTypeSupported: an unsupported response type redirects with the error and state", async () => {
    const outcome = await decideAuthorization({ query: new URLSearchParams(baseParams(w.app, { response_type: "code token" })), session: null, step: "authorize" });
    expect(outcome.kind).toBe("redirect");
    const url = new URL(outcome.kind === "redirect" ? outcome.location : "");
    expect(url.origin + url.pathname).toBe(w.app.redirectUri);
    expect(url.searchParams.get("error")).toBe("unsupported_response_type");
    expect(url.searchParams.get("state")).toBe("st ate/+é");
  });

  it("scopePresentAndKnown: an unknown scope redirects with invalid_scope and state", async () => {
    const outcome = await decideAuthorization({ query: new URLSearchParams(baseParams(w.app, { scope: "user.info admin" })), session: session(w.teacherA), step: "authorize" });
    const url = new URL(outcome.kind === "redirect" ? outcome.location : "http://x");
    expect(url.searchParams.get("error")).toBe("invalid_scope");
    expect(url.searchParams.get("state")).toBe("st ate/+é");
    expect(url.searchParams.get("code")).toBeNull();
  });

  it("the response uses encodeURIComponent, so decodeURIComponent returns state exactly", async () => {
    const location = await authorizeAs(w.teacherA, baseParams(w.app, { state: "a b+c&d=é" }));
    const raw = /[?&]state=([^&]*)/.exec(location.search)?.[1] ?? "";
    expect(decodeURIComponent(raw)).toBe("a b+c&d=é");
  });
});

describe("GET /lti/v1/oauth2/authorize: sign-in and profile choice", () => {
  it("signed out: sign in first, then resume at /oauth/continuar with the same request", async () => {
    const query = new URLSearchParams(baseParams());
    const outcome = await decideAuthorization({ query, session: null, step: "authorize" });
    expect(outcome).toEqual({ kind: "sign_in", loginUrl: `/login?callbackUrl=${encodeURIComponent(`/oauth/continuar?${query}`)}` });
  });

  it("several profiles: the picker, carrying the request", async () => {
    const query = new URLSearchParams(baseParams());
    const outcome = await decideAuthorization({ query, session: session(w.teacherA), step: "authorize" });
    expect(outcome).toEqual({ kind: "choose_profile", pickerUrl: `/oauth/escolher-perfil?${query}` });
  });

  it("the picker shows profiles whose institution has not enabled the application as unavailable", async () => {
    const screen = await prepareProfileChoice({ query: new URLSearchParams(baseParams()), personId: w.personId });
    if (screen.kind !== "choose") throw new Error(screen.kind);
    const enabled = Object.fromEntries(screen.choices.map((c) => [c.id, c.enabled]));
    expect(enabled).toEqual({ [w.teacherA]: true, [w.guardianB]: true, [w.studentC]: false });
    expect(screen.application.name).toBe("Parceiro App");
    const cancel = new URL(screen.cancelUrl);
    expect(cancel.searchParams.get("error")).toBe("access_denied");
    expect(cancel.searchParams.get("state")).toBe("st ate/+é");
  });

  it("after the picker: the chosen profile if enabled, else the picker again", async () => {
    const ok = await decideAuthorization({ query: new URLSearchParams(baseParams()), session: session(w.guardianB), step: "continue" });
    expect(ok.kind === "redirect" && new URL(ok.location).searchParams.get("user_id")).toBe(await pw(w.guardianB));
    const refused = await decideAuthorization({ query: new URLSearchParams(baseParams()), session: session(w.studentC), step: "continue" });
    expect(refused.kind).toBe("choose_profile");
    const none = await decideAuthorization({ query: new URLSearchParams(baseParams()), session: session(null), step: "continue" });
    expect(none.kind).toBe("choose_profile");
  });

  it("a person with one enabled profile goes straight back to the client", async () => {
    const outcome = await decideAuthorization({ query: new URLSearchParams(baseParams()), session: session(null, w.soloPersonId), step: "authorize" });
    expect(outcome.kind === "redirect" && new URL(outcome.location).searchParams.get("user_id")).toBe(await pw(w.soloA));
  });

  it("login_hint naming the current, enabled profile completes without the picker (flow started from the hub)", async () => {
    const hinted = await decideAuthorization({ query: new URLSearchParams(baseParams(w.app, { login_hint: await pw(w.teacherA) })), session: session(w.teacherA), step: "authorize" });
    expect(hinted.kind === "redirect" && new URL(hinted.location).searchParams.get("user_id")).toBe(await pw(w.teacherA));
    // A hint for another profile than the session's does not skip the choice.
    const other = await decideAuthorization({ query: new URLSearchParams(baseParams(w.app, { login_hint: await pw(w.guardianB) })), session: session(w.teacherA), step: "authorize" });
    expect(other.kind).toBe("choose_profile");
  });

  it("prompt=none never shows a screen: login_required, account_selection_required, interaction_required", async () => {
    const silent = (extra: Params = {}) => new URLSearchParams(baseParams(w.app, { prompt: "none", ...extra }));
    const errorOf = (outcome: Awaited<ReturnType<typeof decideAuthorization>>) => {
      if (outcome.kind !== "redirect") throw new Error(`expected a redirect, got ${outcome.kind}`);
      const location = new URL(outcome.location);
      expect(location.searchParams.get("state")).toBe("st ate/+é");
      expect(location.searchParams.get("iss")).toBe(TEST_ISSUER);
      return location.searchParams.get("error");
    };
    expect(errorOf(await decideAuthorization({ query: silent(), session: null, step: "authorize" }))).toBe("login_required");
    expect(errorOf(await decideAuthorization({ query: silent(), session: session(w.teacherA), step: "authorize" }))).toBe("account_selection_required");
    // The session's profile is not enabled for this application; the person has others: still a choice.
    const blocked = await decideAuthorization({ query: silent(), session: session(w.studentC), step: "authorize" });
    expect(errorOf(blocked)).toBe("account_selection_required");
    // One enabled profile: a code, silently.
    const solo = await decideAuthorization({ query: silent(), session: session(null, w.soloPersonId), step: "authorize" });
    expect(solo.kind === "redirect" && new URL(solo.location).searchParams.get("code")).toBeTruthy();
  });

  it("id_token_hint from an earlier sign-in picks that profile; naming someone else with prompt=none is login_required", async () => {
    const { code } = await codeFor({ profileId: w.guardianB, pkce: false });
    const idToken = (await token(specBody(w.app, code))).body.id_token as string;
    const hinted = await decideAuthorization({ query: new URLSearchParams(baseParams(w.app, { prompt: "none", id_token_hint: idToken })), session: session(w.teacherA), step: "authorize" });
    expect(hinted.kind === "redirect" && new URL(hinted.location).searchParams.get("user_id")).toBe(await pw(w.guardianB));
    // The solo person is signed in; the hint names the other person's profile.
    const stranger = await decideAuthorization({ query: new URLSearchParams(baseParams(w.app, { prompt: "none", id_token_hint: idToken })), session: session(w.soloA, w.soloPersonId), step: "authorize" });
    expect(stranger.kind === "redirect" && new URL(stranger.location).searchParams.get("error")).toBe("login_required");
    // A hint that is not one of our id tokens is ignored: the usual choice happens.
    const junk = await decideAuthorization({ query: new URLSearchParams(baseParams(w.app, { id_token_hint: "a.b.c" })), session: session(w.teacherA), step: "authorize" });
    expect(junk.kind).toBe("choose_profile");
  });

  it("prompt=select_account shows the picker even with one profile; prompt=login signs in again", async () => {
    const select = await decideAuthorization({ query: new URLSearchParams(baseParams(w.app, { prompt: "select_account" })), session: session(null, w.soloPersonId), step: "authorize" });
    expect(select.kind).toBe("choose_profile");
    // After the picker (the continuation) the choice is taken, not asked again.
    const chosen = await decideAuthorization({ query: new URLSearchParams(baseParams(w.app, { prompt: "select_account" })), session: session(w.soloA, w.soloPersonId), step: "continue" });
    expect(chosen.kind).toBe("redirect");
    const login = await decideAuthorization({ query: new URLSearchParams(baseParams(w.app, { prompt: "login" })), session: session(w.teacherA), step: "authorize" });
    expect(login.kind === "sign_in" && new URL(login.loginUrl, TEST_ISSUER).searchParams.get("reauth")).toBe("1");
    const resumed = await decideAuthorization({ query: new URLSearchParams(baseParams(w.app, { prompt: "login" })), session: session(w.teacherA), step: "continue" });
    expect(resumed.kind).toBe("redirect");
  });

  it("the code response: code, user_id, state and iss in the query; the redirect URI's own query kept", async () => {
    const location = await authorizeAs(w.teacherA, baseParams(w.app, { redirect_uri: "https://partner.example/cb?keep=1" }));
    expect(location.origin + location.pathname).toBe("https://partner.example/cb");
    expect(location.searchParams.get("keep")).toBe("1");
    expect(location.searchParams.get("code")).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    expect(location.searchParams.get("user_id")).toBe(await pw(w.teacherA));
    expect(location.searchParams.get("iss")).toBe(TEST_ISSUER);
    expect(location.hash).toBe("");
  });

  it("codes are stored hashed, bound to client, redirect URI, profile and PKCE challenge, for 60 s", async () => {
    const pkce = createPkcePair();
    const before = Date.now();
    const location = await authorizeAs(w.guardianB, baseParams(w.app, { code_challenge: pkce.challenge, code_challenge_method: "S256", nonce: "n-1" }));
    const code = location.searchParams.get("code") ?? "";
    const row = await db().authorizationCode.findUnique({ where: { codeHash: hashSecret(code) } });
    expect(row).toMatchObject({
      applicationId: w.app.id, profileId: w.guardianB, redirectUri: w.app.redirectUri, scope: "user.info", nonce: "n-1",
      codeChallenge: pkce.challenge, codeChallengeMethod: "S256", usedAt: null,
    });
    expect(row!.expiresAt.getTime() - before).toBeGreaterThanOrEqual(59_000);
    expect(row!.expiresAt.getTime() - before).toBeLessThanOrEqual(61_000);
    const stored = JSON.stringify(await db().authorizationCode.findMany());
    expect(stored).not.toContain(code);
  });
});

// ---------------------------------------------------------------- discovery and the whole code flow

describe("the code flow with plain fetch, as a standard client drives it", () => {
  it("discovery → authorize with PKCE and nonce → token exchange (the spec's JSON body) → id token against JWKS → user info", async () => {
    const discovery = await hubFetch(`${TEST_ISSUER}/.well-known/openid-configuration`);
    expect(discovery.headers.get("access-control-allow-origin")).toBe("*");
    const meta = (await discovery.json()) as Record<string, string>;
    expect(meta.issuer).toBe(TEST_ISSUER);

    const pkce = createPkcePair();
    const authorizeUrl = new URL(meta.authorization_endpoint!);
    authorizeUrl.search = new URLSearchParams(baseParams(w.app, { state: "xyz", nonce: "nonce-1", code_challenge: pkce.challenge, code_challenge_method: "S256" })).toString();
    const callback = await authorizeAs(w.teacherA, Object.fromEntries(authorizeUrl.searchParams));
    expect(callback.searchParams.get("state")).toBe("xyz");
    const userId = callback.searchParams.get("user_id")!;

    const response = await hubFetch(meta.token_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(specBody(w.app, callback.searchParams.get("code")!, { code_verifier: pkce.verifier })),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("pragma")).toBe("no-cache");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    const tokens = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(tokens).sort()).toEqual(["access_token", "expires_in", "id_token", "scope", "token_type", "user_id"]);
    expect(tokens).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "user.info", user_id: userId });

    const keys = createLocalJWKSet((await (await hubFetch(meta.jwks_uri!)).json()) as { keys: JWK[] });
    const { payload, protectedHeader } = await jwtVerify(tokens.id_token as string, keys, { issuer: TEST_ISSUER, audience: w.app.clientId });
    expect(protectedHeader.alg).toBe("RS256");
    expect(payload).toMatchObject({ sub: userId, nonce: "nonce-1", at_hash: computeAtHash(tokens.access_token as string) });
    expect(typeof payload.iat).toBe("number");
    expect(payload.exp).toBeGreaterThan(payload.iat!);
    // The access token is a JWT too (RFC 9068), verifiable with the same keys.
    const access = await jwtVerify(tokens.access_token as string, keys, { issuer: TEST_ISSUER, typ: "at+jwt" });
    expect(access.payload).toMatchObject({ sub: userId, client_id: w.app.clientId, scope: "user.info" });

    const info = await hubFetch(meta.userinfo_endpoint!, {
      headers: { accept: "application/json", authorization: tokens.access_token as string, "x-relationship-id": userId },
    });
    expect(info.status).toBe(200);
    expect(info.headers.get("cache-control")).toBe("no-store");
    expect(await info.json()).toEqual({
      sub: await pw(w.teacherA),
      user_id: await pw(w.teacherA),
      perfil: "professor",
      instituicao: { id: w.schoolA, nome: "Escola A", tipo: "school" },
      usuario: {
        nome_usuario: "Ana Teste",
        idade: "1988-04-05",
        email_usuario: pseudonymize({ applicationId: w.app.id, attribute: "email_usuario", value: (await db().person.findUniqueOrThrow({ where: { id: w.personId } })).email! }),
      },
      configuracao: { conjuntoDadosUsuario: { atributosPermitidos: ["nome_usuario", "idade", "email_usuario"], atributosAnonimizados: ["email_usuario"] } },
    });
  });

  it("the spec's JSON body alone (no PKCE, no redirect_uri) exchanges a code issued without a challenge", async () => {
    const { code } = await codeFor({ pkce: false });
    const { response, body } = await token(specBody(w.app, code));
    expect(response.status).toBe(200);
    expect(body.user_id).toBe(await pw(w.teacherA));
  });

  it("form-encoded body with HTTP Basic client authentication (RFC 6749 §2.3.1, §4.1.3)", async () => {
    const { code, verifier } = await codeFor();
    const form = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: w.app.redirectUri, code_verifier: verifier });
    const { response, body } = await token(form, { basic: [w.app.clientId, w.app.clientSecret] });
    expect(response.status).toBe(200);
    expect(body.token_type).toBe("Bearer");
  });

  it("form-encoded body with client_secret_post", async () => {
    const { code, verifier } = await codeFor();
    const form = new URLSearchParams({ ...specBody(w.app, code), code_verifier: verifier });
    expect((await token(form)).response.status).toBe(200);
  });

  it("JSON sent with a form content type (curl -d) is read as JSON", async () => {
    const { code, verifier } = await codeFor();
    const { response } = await token(JSON.stringify(specBody(w.app, code, { code_verifier: verifier })), { contentType: "application/x-www-form-urlencoded" });
    expect(response.status).toBe(200);
  });
});

// ---------------------------------------------------------------- token exchange failures

describe("POST /lti/v1/oauth2/authorize: failures", () => {
  it("wrong client secret → 401 invalid_client with WWW-Authenticate, no-store", async () => {
    const { code, verifier } = await codeFor();
    const { response, body } = await token({ ...specBody(w.app, code, { code_verifier: verifier }), client_secret: "wrong" });
    expect(response.status).toBe(401);
    expect(body.error).toBe("invalid_client");
    expect(response.headers.get("www-authenticate")).toMatch(/^Basic realm="hub"/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const basic = await token(new URLSearchParams({ grant_type: "authorization_code", code }), { basic: [w.app.clientId, "wrong"] });
    expect(basic.response.status).toBe(401);
    expect(basic.body.error).toBe("invalid_client");
    // The failed attempts did not spend the code.
    expect((await token(specBody(w.app, code, { code_verifier: verifier }))).response.status).toBe(200);
  });

  it("unknown client or no credentials → 401 invalid_client", async () => {
    const { code } = await codeFor();
    expect((await token({ ...specBody(w.app, code), client_id: "nobody" })).body.error).toBe("invalid_client");
    expect((await token({ grant_type: "authorization_code", code })).response.status).toBe(401);
  });

  it("code of another client → invalid_grant", async () => {
    const { code, verifier } = await codeFor();
    const { response, body } = await token(specBody(w.otherApp, code, { code_verifier: verifier }));
    expect(response.status).toBe(400);
    expect(body.error).toBe("invalid_grant");
  });

  it("wrong redirect URI at the token step → invalid_grant", async () => {
    const { code, verifier } = await codeFor();
    const { body } = await token(specBody(w.app, code, { code_verifier: verifier, redirect_uri: "https://partner.example/cb?keep=1" }));
    expect(body.error).toBe("invalid_grant");
  });

  it("expired code (older than 60 s) → invalid_grant", async () => {
    const code = await issueCode({
      application: w.app,
      request: { clientId: w.app.clientId, redirectUri: w.app.redirectUri, responseTypes: ["code"], scope: ["user.info"], responseMode: "query", openid: false, prompt: new Set() },
      profileId: w.teacherA,
      now: new Date(Date.now() - 61_000),
    });
    const { body } = await token(specBody(w.app, code));
    expect(body).toMatchObject({ error: "invalid_grant", error_description: "The authorization code expired" });
  });

  it("PKCE: wrong verifier, missing verifier, or a verifier for a code without challenge → invalid_grant", async () => {
    const a = await codeFor();
    expect((await token(specBody(w.app, a.code, { code_verifier: createPkcePair().verifier }))).body.error).toBe("invalid_grant");
    const b = await codeFor();
    expect((await token(specBody(w.app, b.code))).body.error).toBe("invalid_grant");
    const c = await codeFor({ pkce: false });
    expect((await token(specBody(w.app, c.code, { code_verifier: createPkcePair().verifier }))).body.error).toBe("invalid_grant");
  });

  it("replayed code → invalid_grant, and the tokens issued from it are revoked (user info then answers 401)", async () => {
    const { code, verifier } = await codeFor();
    const first = await token(specBody(w.app, code, { code_verifier: verifier }));
    expect(first.response.status).toBe(200);
    const accessToken = first.body.access_token as string;
    expect((await userInfo(accessToken, await pw(w.teacherA))).response.status).toBe(200);

    const replay = await token(specBody(w.app, code, { code_verifier: verifier }));
    expect(replay.response.status).toBe(400);
    expect(replay.body.error).toBe("invalid_grant");

    const after = await userInfo(accessToken, await pw(w.teacherA));
    expect(after.response.status).toBe(401);
    expect(after.body).toMatchObject({ error: "invalid_token", error_description: "The access token was revoked" });
  });

  it("concurrent exchanges of one code: exactly one succeeds and its token ends up revoked", async () => {
    const { code, verifier } = await codeFor();
    const results = await Promise.all([1, 2, 3].map(() => token(specBody(w.app, code, { code_verifier: verifier }))));
    const ok = results.filter((r) => r.response.status === 200);
    expect(ok).toHaveLength(1);
    expect((await userInfo(ok[0]!.body.access_token as string)).response.status).toBe(401);
  });

  it("unsupported grant types → 400 unsupported_grant_type", async () => {
    for (const grant_type of ["client_credentials", "refresh_token", "password", "implicit"]) {
      const { response, body } = await token({ grant_type, client_id: w.app.clientId, client_secret: w.app.clientSecret, refresh_token: "x" });
      expect(response.status).toBe(400);
      expect(body.error).toBe("unsupported_grant_type");
    }
  });

  it("bad input is a clear 400 invalid_request, never a 5xx", async () => {
    const cases: [string, string | undefined][] = [
      ["{not json", "application/json"],
      ["[1,2]", "application/json"],
      ['{"grant_type":"authorization_code","client_id":"' + w.app.clientId + '","client_secret":"' + w.app.clientSecret + '"}', "application/json"],
      ['{"grant_type":"authorization_code","client_id":"' + w.app.clientId + '","client_secret":"' + w.app.clientSecret + '","code":42}', "application/json"],
      ["grant_type=authorization_code&grant_type=authorization_code", "application/x-www-form-urlencoded"],
      ["<xml/>", "text/xml"],
      ["x".repeat(20_000), "application/x-www-form-urlencoded"],
    ];
    for (const [body, contentType] of cases) {
      const response = await hubFetch(`${TEST_ISSUER}/lti/v1/oauth2/authorize`, { method: "POST", headers: contentType ? { "content-type": contentType } : {}, body });
      expect(response.status, body.slice(0, 40)).toBe(400);
      expect(((await response.json()) as { error: string }).error).toBe("invalid_request");
    }
    const empty = await hubFetch(`${TEST_ISSUER}/lti/v1/oauth2/authorize`, { method: "POST" });
    expect(empty.status).toBe(401); // no client credentials at all
  });
});

// ---------------------------------------------------------------- user info

describe("GET /users/v1/users/info", () => {
  let accessToken = "";
  beforeAll(async () => {
    const { code, verifier } = await codeFor({ profileId: w.guardianB });
    accessToken = (await token(specBody(w.app, code, { code_verifier: verifier }))).body.access_token as string;
  });

  it("accepts the bare token and `Bearer`; x-relationship-id may be any case or absent", async () => {
    expect((await userInfo(accessToken, await pw(w.guardianB), false)).response.status).toBe(200);
    expect((await userInfo(accessToken, (await pw(w.guardianB)).toUpperCase())).response.status).toBe(200);
    const { response, body } = await userInfo(accessToken);
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    // School B shares only the name with this application.
    expect(body).toMatchObject({ user_id: await pw(w.guardianB), perfil: "responsavel", instituicao: { nome: "Escola B" }, usuario: { nome_usuario: "Ana Teste" } });
    expect(Object.keys(body.usuario as object)).toEqual(["nome_usuario"]);
  });

  it("another profile's x-relationship-id → 403", async () => {
    const { response, body } = await userInfo(accessToken, await pw(w.teacherA));
    expect(response.status).toBe(403);
    expect(body.error).toBe("access_denied");
    expect(response.headers.get("www-authenticate")).toContain('error="access_denied"');
    expect((await userInfo(accessToken, "not-a-uuid")).response.status).toBe(403);
  });

  it("missing or malformed authorization → 401 invalid_token with a Bearer challenge", async () => {
    const response = await hubFetch(`${TEST_ISSUER}/users/v1/users/info`, { headers: { "x-relationship-id": w.guardianB } });
    expect(response.status).toBe(401);
    expect(response.headers.get("www-authenticate")).toMatch(/^Bearer realm="hub", error="invalid_token"/);
    expect((await userInfo("Basic abc")).response.status).toBe(401);
    expect((await userInfo("a b c", undefined, false)).response.status).toBe(401);
  });

  it("tampered token → 401", async () => {
    const [header, payload, signature] = accessToken.split(".");
    const claims = decodeJwt(accessToken);
    const forged = Buffer.from(JSON.stringify({ ...claims, sub: w.teacherA })).toString("base64url");
    expect((await userInfo(`${header}.${forged}.${signature}`, w.teacherA)).response.status).toBe(401);
    const flipped = signature!.slice(0, -2) + (signature!.endsWith("AA") ? "BB" : "AA");
    expect((await userInfo(`${header}.${payload}.${flipped}`)).response.status).toBe(401);
  });

  it("an id token reads user info too (the contract: both token kinds work with user.info), until its code is replayed", async () => {
    const { code } = await codeFor({ pkce: false });
    const idToken = (await token(specBody(w.app, code))).body.id_token as string;
    const ok = await userInfo(idToken);
    expect(ok.response.status).toBe(200);
    expect(ok.body).toMatchObject({ sub: decodeJwt(idToken).sub });
    // A tampered id token is refused like a tampered access token.
    const [header, , signature] = idToken.split(".");
    const forged = Buffer.from(JSON.stringify({ ...decodeJwt(idToken), sub: w.guardianB })).toString("base64url");
    expect((await userInfo(`${header}.${forged}.${signature}`)).response.status).toBe(401);
    // Replaying the code revokes every token issued from it, the id token included.
    await token(specBody(w.app, code));
    expect((await userInfo(idToken)).response.status).toBe(401);
  });

  it("expired token → 401", async () => {
    const old = await issueTokens({ application: w.app, profileId: w.teacherA, scope: ["user.info"], accessToken: true, idToken: false, now: new Date(Date.now() - 2 * 3600_000) });
    const { response, body } = await userInfo(old.accessToken!, w.teacherA);
    expect(response.status).toBe(401);
    expect(body.error_description).toBe("The access token expired");
  });

  it("a token user info has verified once is still refused once it expires (the verified-token cache keeps exp)", async () => {
    const fresh = await issueTokens({ application: w.app, profileId: w.teacherA, scope: ["user.info"], accessToken: true, idToken: false });
    const authorization = `Bearer ${fresh.accessToken!}`;
    expect(await getUserInfo({ authorization, relationshipId: null })).not.toBeInstanceOf(OAuthError);
    const later = await getUserInfo({ authorization, relationshipId: null, now: new Date(Date.now() + 2 * 3600_000) });
    expect(later).toBeInstanceOf(OAuthError);
    expect((later as OAuthError).description).toBe("The access token expired");
    // And a verified token's row is still read on every request: revoking it refuses the next one.
    await db().accessToken.updateMany({ where: { jti: decodeJwt(fresh.accessToken!).jti! }, data: { revokedAt: new Date() } });
    expect(await getUserInfo({ authorization, relationshipId: null })).toBeInstanceOf(OAuthError);
  });

  it("revoked token → 401", async () => {
    const fresh = await issueTokens({ application: w.app, profileId: w.teacherA, scope: ["user.info"], accessToken: true, idToken: false });
    expect((await userInfo(fresh.accessToken!)).response.status).toBe(200);
    await db().accessToken.updateMany({ where: { profileId: w.teacherA, revokedAt: null }, data: { revokedAt: new Date() } });
    expect((await userInfo(fresh.accessToken!)).response.status).toBe(401);
  });

  it("an institution that stops enabling the application stops user info for its profiles", async () => {
    const fresh = await issueTokens({ application: w.app, profileId: w.guardianB, scope: ["user.info"], accessToken: true, idToken: false });
    await db().applicationAccess.deleteMany({ where: { applicationId: w.app.id, institutionId: w.schoolB } });
    try {
      // The network's row still enables it, with the network's rules.
      const stillEnabled = await userInfo(fresh.accessToken!);
      expect(Object.keys(stillEnabled.body.usuario as object)).toEqual(["nome_usuario", "idade", "email_usuario"]);
      await db().edtechLink.deleteMany({ where: { edtechId: w.app.edtechId } });
      expect((await userInfo(fresh.accessToken!)).response.status).toBe(401);
    } finally {
      await db().edtechLink.create({ data: { institutionId: w.network, edtechId: w.app.edtechId } });
      await db().applicationAccess.create({ data: { institutionId: w.schoolB, applicationId: w.app.id, allowedAttributes: ["nome_usuario"], anonymizedAttributes: [] } });
    }
  });

  it("CORS preflight is allowed for the headers partners send", async () => {
    const response = await hubFetch(`${TEST_ISSUER}/users/v1/users/info`, { method: "OPTIONS" });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-headers")).toContain("x-relationship-id");
  });
});

// ---------------------------------------------------------------- implicit flow

describe("implicit flow", () => {
  it("response_type=token (alias of access_token): access_token, token_type, expires_in, state and user_id in the fragment", async () => {
    const location = await authorizeAs(w.teacherA, baseParams(w.app, { response_type: "token" }));
    expect(location.search).toBe("");
    const fragment = fragmentOf(location);
    expect(fragment.get("token_type")).toBe("Bearer");
    expect(fragment.get("expires_in")).toBe("3600");
    expect(fragment.get("state")).toBe("st ate/+é");
    expect(fragment.get("user_id")).toBe(await pw(w.teacherA));
    expect(fragment.get("id_token")).toBeNull();
    expect((await userInfo(fragment.get("access_token")!, await pw(w.teacherA))).response.status).toBe(200);
  });

  it("response_type=id_token: the id token verifies against the JWKS and carries iss, sub, aud, exp, iat, nonce", async () => {
    const location = await authorizeAs(w.teacherA, baseParams(w.app, { response_type: "id_token", nonce: "n-implicit" }));
    const fragment = fragmentOf(location);
    expect(fragment.get("access_token")).toBeNull();
    const { payload } = await jwtVerify(fragment.get("id_token")!, await jwks(), { issuer: TEST_ISSUER, audience: w.app.clientId });
    expect(payload).toMatchObject({ iss: TEST_ISSUER, sub: await pw(w.teacherA), aud: w.app.clientId, nonce: "n-implicit" });
    expect(payload.exp! - payload.iat!).toBe(600);
    expect(payload.at_hash).toBeUndefined();
  });

  it("response_type=\"id_token token\": both, with at_hash binding the id token to the access token", async () => {
    const location = await authorizeAs(w.teacherA, baseParams(w.app, { response_type: "id_token token", nonce: "n-both" }));
    const fragment = fragmentOf(location);
    const { payload } = await jwtVerify(fragment.get("id_token")!, await jwks(), { issuer: TEST_ISSUER, audience: w.app.clientId });
    expect(payload.at_hash).toBe(computeAtHash(fragment.get("access_token")!));
    expect(fragment.get("state")).toBe("st ate/+é");
  });

  it("response_mode=query is honoured for compatibility", async () => {
    const location = await authorizeAs(w.teacherA, baseParams(w.app, { response_type: "access_token", response_mode: "query" }));
    expect(location.hash).toBe("");
    expect(location.searchParams.get("access_token")).toBeTruthy();
    expect(location.searchParams.get("user_id")).toBe(await pw(w.teacherA));
  });

  it("an omitted response_type uses the application's default", async () => {
    const params = baseParams();
    delete params.response_type;
    expect((await authorizeAs(w.teacherA, params)).searchParams.get("code")).toBeTruthy();
  });
});

describe("/.well-known", () => {
  it("jwks.json publishes only public RSA members, each with a kid", async () => {
    const response = await hubFetch(`${TEST_ISSUER}/.well-known/jwks.json`);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    const { keys } = (await response.json()) as { keys: Record<string, unknown>[] };
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(["alg", "e", "kid", "kty", "n", "use"]);
    }
  });
});
