// The hub driven by two independent OpenID Connect client libraries, through the served hub:
//
// - oidc-client-ts, the browser library single-page applications use, running in Chromium: the
//   code flow with PKCE and user info, then silent renewal (`prompt=none` in a hidden iframe),
//   which only works when the hub answers `prompt=none` with a redirect, never with a screen.
// - openid-client in Node: the implicit `id_token` flow (which needs a nonce with `openid`), user
//   info by POST and with the id token itself.
//
// The relying party's page is served by the test at the demo application's registered redirect
// URI, so it runs at an address the hub accepts for the `demo-app` client.
import { readFileSync } from "node:fs";
import path from "node:path";
import * as client from "openid-client";
import type { Page } from "@playwright/test";
import { expect, signInByForm, test } from "./fixtures";

const CLIENT_ID = "demo-app";
const CLIENT_SECRET = "demo-secret";
const ANA = "ana.souza@demo.hub.br"; // two profiles, both enabled for the demo application
const STUDENT = "aluno@demo.hub.br"; // one profile

const LIBRARY = readFileSync(path.join(process.cwd(), "node_modules/oidc-client-ts/dist/browser/oidc-client-ts.min.js"), "utf8");

/** The relying party: oidc-client-ts configured for the hub; on a redirect back it finishes the sign-in. */
function rpPage(baseURL: string): string {
  const settings = {
    authority: baseURL,
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
    redirect_uri: `${baseURL}/demo-app/callback`,
    silent_redirect_uri: `${baseURL}/demo-app/callback`,
    scope: "openid user.info",
    response_type: "code",
    loadUserInfo: true,
    silentRequestTimeoutInSeconds: 8,
    automaticSilentRenew: false,
    // Sends the last id token as id_token_hint on silent renewal (docs/oauth.md recommends it):
    // that is how the hub knows which of a person's profiles to renew without asking.
    includeIdTokenInSilentRenew: true,
  };
  return `<!doctype html><meta charset="utf-8"><title>RP</title>
<script>${LIBRARY}</script>
<script>
  const manager = new oidc.UserManager({ ...${JSON.stringify(settings)}, userStore: new oidc.WebStorageStateStore({ store: window.localStorage }) });
  window.rp = {
    manager,
    summary: (user) => user && { sub: user.profile.sub, perfil: user.profile.perfil, idToken: user.id_token, accessToken: user.access_token },
    failure: (error) => ({ error: error.error ?? null, message: String(error.message ?? error) }),
  };
  const query = new URLSearchParams(location.search);
  if (query.has("code") || query.has("error")) {
    window.rp.done = manager.signinCallback().then((user) => ({ user: window.rp.summary(user) }), (error) => window.rp.failure(error));
  }
</script>`;
}

/**
 * Opens the relying party. Playwright cannot intercept the target of a redirect, so every page
 * the browser navigates to on the hub (top window or the library's hidden iframe) is fetched
 * here, and a redirect is handed to the browser as a page that moves on by itself: the next
 * request is then seen too, and the redirect URI's request is answered with the RP page.
 */
async function openRp(page: Page, baseURL: string): Promise<void> {
  const html = rpPage(baseURL);
  await page.route(`${baseURL}/**`, async (route) => {
    const request = route.request();
    if (request.resourceType() !== "document") return route.fallback();
    const url = new URL(request.url());
    if (url.pathname === "/demo-app/callback") return route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html });
    const response = await route.fetch({ maxRedirects: 0 });
    const location = response.headers()["location"];
    if (response.status() >= 300 && response.status() < 400 && location) {
      const next = JSON.stringify(new URL(location, url).href);
      return route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: `<!doctype html><script>location.replace(${next})</script>` });
    }
    return route.fulfill({ response });
  });
  await page.goto(`${baseURL}/demo-app/callback?rp=home`);
}

type TSilent = { user?: { sub: string; perfil?: string; idToken?: string }; error?: string | null; message?: string };

async function signinSilent(page: Page): Promise<TSilent> {
  return page.evaluate(() => {
    const rp = (window as unknown as { rp: { manager: { signinSilent(): Promise<unknown> }; summary(u: unknown): unknown; failure(e: unknown): unknown } }).rp;
    return rp.manager.signinSilent().then((user) => ({ user: rp.summary(user) }), (error) => rp.failure(error)) as Promise<TSilent>;
  });
}

test.describe("oidc-client-ts in the browser", () => {
  test("silent renewal of a signed-out person ends at once with login_required", async ({ page, baseURL }) => {
    await openRp(page, baseURL!);
    const result = await signinSilent(page);
    expect(result, JSON.stringify(result)).toMatchObject({ error: "login_required" });
  });

  test("silent renewal for a person with two profiles and no hint asks for account selection", async ({ page, baseURL }) => {
    await signInByForm(page.request, baseURL!, ANA);
    await openRp(page, baseURL!);
    const result = await signinSilent(page);
    expect(result, JSON.stringify(result)).toMatchObject({ error: "account_selection_required" });
  });

  test("code flow with PKCE and user info, then silent renewal keeps the chosen profile", async ({ page, baseURL }) => {
    await signInByForm(page.request, baseURL!, ANA);
    await openRp(page, baseURL!);
    // The library navigates away: start it without waiting on its promise.
    await page.evaluate(() => {
      void (window as unknown as { rp: { manager: { signinRedirect(): Promise<void> } } }).rp.manager.signinRedirect();
    });
    await expect(page.getByRole("heading", { name: /Com qual perfil você quer entrar/ })).toBeVisible();
    await page.getByRole("button", { name: /Professor\(a\)/ }).click();
    await page.waitForURL(/\/demo-app\/callback\?.*code=/);
    const signedIn = (await page.evaluate(() => (window as unknown as { rp: { done: Promise<TSilent> } }).rp.done)) as TSilent;
    expect(signedIn.error ?? null).toBeNull();
    // loadUserInfo: the library read user info with the access token and checked its sub.
    expect(signedIn.user).toMatchObject({ perfil: "professor" });
    const teacher = signedIn.user!.sub;

    // The stored id token goes back as id_token_hint in a hidden iframe with prompt=none: the
    // hub answers with a new code for the same profile, without any screen.
    const renewed = await signinSilent(page);
    expect(renewed.error ?? null).toBeNull();
    expect(renewed.user).toMatchObject({ sub: teacher, perfil: "professor" });
    expect(renewed.user!.idToken).not.toBe(signedIn.user!.idToken);
  });
});

test.describe("openid-client against the served hub", () => {
  async function discover(baseURL: string): Promise<client.Configuration> {
    const config = await client.discovery(new URL(baseURL), CLIENT_ID, CLIENT_SECRET, undefined, { execute: [client.allowInsecureRequests] });
    client.useIdTokenResponseType(config);
    return config;
  }

  test("implicit id_token: nonce is required with openid; the id token is verified and reads user info by GET and POST", async ({ playwright, baseURL }) => {
    const config = await discover(baseURL!);
    const student = await playwright.request.newContext({ baseURL });
    await signInByForm(student, baseURL!, STUDENT);
    const redirectUri = `${baseURL}/demo-app/callback`;
    const follow = async (url: URL) => {
      const response = await student.get(url.pathname + url.search, { maxRedirects: 0 });
      expect(response.status()).toBe(302);
      return new URL(response.headers().location!);
    };
    const authorize = (params: Record<string, string>) =>
      follow(client.buildAuthorizationUrl(config, { redirect_uri: redirectUri, scope: "openid user.info", response_type: "id_token", ...params }));

    // OIDC Core §3.2.2.1: no nonce → the client gets invalid_request at its redirect URI, no token.
    // (The library itself will not build such a request, so this one is built by hand.)
    const withoutNonce = new URL("/lti/v1/oauth2/authorize", baseURL);
    withoutNonce.search = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: redirectUri, scope: "openid user.info", response_type: "id_token", state: "s1" }).toString();
    const refused = new URLSearchParams((await follow(withoutNonce)).hash.slice(1));
    expect(refused.get("error")).toBe("invalid_request");
    expect(refused.get("state")).toBe("s1");
    expect(refused.has("id_token")).toBe(false);

    const nonce = client.randomNonce();
    const state = client.randomState();
    const back = await authorize({ nonce, state });
    const claims = await client.implicitAuthentication(config, back, nonce, { expectedState: state });
    const userId = new URLSearchParams(back.hash.slice(1)).get("user_id");
    expect(claims.sub).toBe(userId);
    expect(claims.nonce).toBe(nonce);
    const idToken = new URLSearchParams(back.hash.slice(1)).get("id_token")!;

    // The contract: both token kinds read user info. GET with the id token:
    const byGet = await client.fetchProtectedResource(config, idToken, new URL(config.serverMetadata().userinfo_endpoint!), "GET");
    expect(byGet.status).toBe(200);
    expect(await byGet.json()).toMatchObject({ sub: userId, perfil: "aluno" });
    // OIDC Core §5.3.1: user info answers POST too.
    const byPost = await client.fetchProtectedResource(config, idToken, new URL(config.serverMetadata().userinfo_endpoint!), "POST");
    expect(byPost.status).toBe(200);
    expect(await byPost.json()).toMatchObject({ sub: userId });
    await student.dispose();
  });

  test("prompt=none through the library's own URL: login_required signed out, a code signed in", async ({ playwright, baseURL }) => {
    const config = await client.discovery(new URL(baseURL!), CLIENT_ID, CLIENT_SECRET, undefined, { execute: [client.allowInsecureRequests] });
    const verifier = client.randomPKCECodeVerifier();
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: `${baseURL}/demo-app/callback`, scope: "openid user.info", prompt: "none", state: "quiet",
      code_challenge: await client.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256",
    });
    const browser = await playwright.request.newContext({ baseURL });
    const signedOut = new URL((await browser.get(url.pathname + url.search, { maxRedirects: 0 })).headers().location!);
    expect(signedOut.pathname).toBe("/demo-app/callback");
    expect(Object.fromEntries(signedOut.searchParams)).toMatchObject({ error: "login_required", state: "quiet", iss: config.serverMetadata().issuer });

    await signInByForm(browser, baseURL!, STUDENT);
    const back = new URL((await browser.get(url.pathname + url.search, { maxRedirects: 0 })).headers().location!);
    const tokens = await client.authorizationCodeGrant(config, back, { pkceCodeVerifier: verifier, expectedState: "quiet" });
    expect(tokens.claims()!.sub).toBe(back.searchParams.get("user_id"));
    const info = await client.fetchUserInfo(config, tokens.access_token, tokens.claims()!.sub);
    expect(info).toMatchObject({ perfil: "aluno" });
    await browser.dispose();
  });
});

test.describe("user info and the token endpoint by plain HTTP", () => {
  test("user info by POST with the token as a form field; both ways at once is refused", async ({ playwright, baseURL }) => {
    const browser = await playwright.request.newContext({ baseURL });
    await signInByForm(browser, baseURL!, STUDENT);
    const query = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: `${baseURL}/demo-app/callback`, response_type: "access_token", scope: "user.info", state: "x" });
    const location = new URL((await browser.get(`/lti/v1/oauth2/authorize?${query}`, { maxRedirects: 0 })).headers().location!);
    const accessToken = new URLSearchParams(location.hash.slice(1)).get("access_token")!;
    const form = await browser.post("/users/v1/users/info", { form: { access_token: accessToken } });
    expect(form.status()).toBe(200);
    expect(await form.json()).toMatchObject({ perfil: "aluno" });
    const both = await browser.post("/users/v1/users/info", { form: { access_token: accessToken }, headers: { authorization: `Bearer ${accessToken}` } });
    expect(both.status()).toBe(400);
    expect(await both.json()).toMatchObject({ error: "invalid_request" });
    await browser.dispose();
  });

  test("prompt=select_account shows the picker even to a one-profile person; prompt=login asks for the password again", async ({ playwright, baseURL }) => {
    const browser = await playwright.request.newContext({ baseURL });
    await signInByForm(browser, baseURL!, STUDENT);
    const ask = async (prompt: string) => {
      const query = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: `${baseURL}/demo-app/callback`, response_type: "code", scope: "user.info", prompt });
      return new URL((await browser.get(`/lti/v1/oauth2/authorize?${query}`, { maxRedirects: 0 })).headers().location!, baseURL);
    };
    expect((await ask("select_account")).pathname).toBe("/oauth/escolher-perfil");
    const login = await ask("login");
    expect(login.pathname).toBe("/login");
    expect(login.searchParams.get("reauth")).toBe("1");
    expect(login.searchParams.get("callbackUrl")).toMatch(/^\/oauth\/continuar\?/);
    const form = await browser.get(login.pathname + login.search);
    expect(await form.text()).toContain('name="password"');
    expect((await ask("none login")).searchParams.get("error")).toBe("invalid_request");
    await browser.dispose();
  });

  test("a JSON token request sent as fetch sends a string (text/plain) is accepted", async ({ playwright, baseURL }) => {
    const browser = await playwright.request.newContext({ baseURL });
    await signInByForm(browser, baseURL!, STUDENT);
    const query = new URLSearchParams({ client_id: CLIENT_ID, redirect_uri: `${baseURL}/demo-app/callback`, response_type: "code", scope: "user.info", state: "x" });
    const code = new URL((await browser.get(`/lti/v1/oauth2/authorize?${query}`, { maxRedirects: 0 })).headers().location!).searchParams.get("code")!;
    const response = await fetch(`${baseURL}/lti/v1/oauth2/authorize`, {
      method: "POST",
      headers: { accept: "application/json" },
      body: JSON.stringify({ grant_type: "authorization_code", client_id: CLIENT_ID, client_secret: CLIENT_SECRET, code }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ token_type: "Bearer" });
    await browser.dispose();
  });
});
