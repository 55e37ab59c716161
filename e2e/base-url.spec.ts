// The hub opened at another of its addresses (127.0.0.1 for the suite's http://localhost base URL)
// sends a page to the base URL before any form is filled, and every refused form answers with a
// page in Portuguese, never JSON (issue #42, point 4). APIs answer at any address.
import type { Page } from "@playwright/test";
import { expect, fillSignIn, test } from "./fixtures";

/** The served hub at another address: the same server, reached as 127.0.0.1. */
function otherAddress(baseURL: string): string {
  const url = new URL(baseURL);
  url.hostname = "127.0.0.1";
  return url.origin;
}

const isSession = (name: string) => name.endsWith("next-auth.session-token");

/** A page of the hub's own server at another address, holding a form the test writes: as if the person had opened the hub there. */
async function formAt(page: Page, origin: string, form: string): Promise<void> {
  // /healthz is a route handler: answered where asked, so the page stays at that address.
  await page.goto(`${origin}/healthz`);
  expect(new URL(page.url()).origin).toBe(origin);
  await page.setContent(`<!doctype html><html lang="pt-BR"><head><title>Formulário</title></head><body><main><h1>Formulário</h1>${form}</main></body></html>`);
}

test("the sign-in page opened at another address moves to the base URL before anything is typed, and signing in works", async ({ page, baseURL }) => {
  const base = new URL(baseURL!).origin;
  const response = await page.goto(`${otherAddress(base)}/login?callbackUrl=%2F`);
  expect(page.url()).toBe(`${base}/login?callbackUrl=%2F`);
  const redirect = await response!.request().redirectedFrom()!.response();
  expect(redirect!.status()).toBe(307);
  expect(redirect!.headers()["cache-control"]).toBe("no-store");
  await fillSignIn(page, "aluno@demo.hub.br");
  await expect(page.getByRole("heading", { name: /^Olá, / })).toBeVisible();
  expect(new URL(page.url()).origin).toBe(base);
  const sessions = (await page.context().cookies()).filter((cookie) => isSession(cookie.name));
  expect(sessions.map((cookie) => cookie.domain)).toEqual([new URL(base).hostname]);
});

test("a sign-in form posted from another address is refused with a page in Portuguese that leads to the sign-in at the base URL; no session", async ({ page, baseURL }) => {
  const base = new URL(baseURL!).origin;
  await formAt(
    page,
    otherAddress(base),
    `<form method="post" action="${base}/entrar"><input name="login" value="aluno@demo.hub.br"><input name="password" value="hub-demo"><button>Entrar</button></form>`,
  );
  const answer = page.waitForResponse((response) => response.url() === `${base}/entrar`);
  await page.getByRole("button", { name: "Entrar" }).click();
  expect((await answer).status()).toBe(403);
  expect((await answer).headers()["content-type"]).toBe("text/html; charset=utf-8");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Formulário enviado de outro endereço");
  await expect(page).toHaveTitle("Formulário enviado de outro endereço");
  await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
  await expect(page.getByRole("main")).toContainText(`não é o do Hub (${new URL(base).host})`);
  await expect(page.getByRole("link", { name: "Ir para a página de entrada" })).toHaveAttribute("href", `${base}/login`);
  expect((await page.context().cookies()).filter((cookie) => isSession(cookie.name))).toEqual([]);

  // The same post from another site, without a browser: the same page, not JSON, and no cookie.
  const crossSite = await page.request.post("/entrar", { form: { login: "aluno@demo.hub.br", password: "hub-demo" }, headers: { origin: "https://evil.example" }, maxRedirects: 0 });
  expect(crossSite.status()).toBe(403);
  expect(crossSite.headers()["content-type"]).toBe("text/html; charset=utf-8");
  expect(crossSite.headers()["cache-control"]).toBe("no-store");
  expect(crossSite.headers()["set-cookie"]).toBeUndefined();
  expect(await crossSite.text()).toMatch(/^<!doctype html><html lang="pt-BR">/);
});

test("a form posted to a page from another address (a server action, to Next) gets the same page from the request guard", async ({ page, baseURL }) => {
  const base = new URL(baseURL!).origin;
  await formAt(page, otherAddress(base), `<form method="post" action="${base}/login"><input name="login" value="x"><button>Enviar</button></form>`);
  const answer = page.waitForResponse((response) => response.url() === `${base}/login` && response.request().method() === "POST");
  await page.getByRole("button", { name: "Enviar" }).click();
  expect((await answer).status()).toBe(403);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Formulário enviado de outro endereço");
  await expect(page.getByRole("link", { name: "Ir para a página de entrada" })).toHaveAttribute("href", `${base}/login`);
  // An API client posting the same gets JSON, as before.
  const api = await page.request.post("/login", { form: { login: "x" }, headers: { origin: "https://evil.example" }, maxRedirects: 0 });
  expect(api.status()).toBe(403);
  expect(Object.keys((await api.json()) as object)).toEqual(["message"]);
});

test("a sign-in form sent in another format is refused with a 415 page in Portuguese", async ({ page, baseURL }) => {
  const base = new URL(baseURL!).origin;
  await formAt(page, base, `<form method="post" action="/entrar" enctype="text/plain"><input name="login" value="aluno@demo.hub.br"><button>Entrar</button></form>`);
  const answer = page.waitForResponse((response) => response.url() === `${base}/entrar`);
  await page.getByRole("button", { name: "Entrar" }).click();
  expect((await answer).status()).toBe(415);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Formulário em um formato não aceito");
  await expect(page.getByRole("link", { name: "Voltar ao início" })).toHaveAttribute("href", `${base}/`);

  const json = await page.request.post("/entrar", { data: { login: "aluno@demo.hub.br", password: "hub-demo" }, headers: { origin: base }, maxRedirects: 0 });
  expect(json.status()).toBe(415);
  expect(json.headers()["content-type"]).toBe("text/html; charset=utf-8");
  expect(await json.text()).toContain("<h1>Formulário em um formato não aceito</h1>");
  expect((await page.context().cookies()).filter((cookie) => isSession(cookie.name))).toEqual([]);
});

test("route handlers answer at any address; pages redirect, unless a reverse proxy says which host it serves", async ({ request, baseURL }) => {
  const base = new URL(baseURL!).origin;
  const other = otherAddress(base);
  const discovery = await request.get(`${other}/.well-known/openid-configuration`, { maxRedirects: 0 });
  expect(discovery.status()).toBe(200);
  expect(((await discovery.json()) as { issuer: string }).issuer).toBe(base);
  expect((await request.get(`${other}/healthz`, { maxRedirects: 0 })).status()).toBe(200);

  for (const method of ["GET", "HEAD"] as const) {
    const page = await request.fetch(`${other}/login?callbackUrl=%2Fperfil`, { method, maxRedirects: 0 });
    expect(page.status(), method).toBe(307);
    expect(page.headers().location, method).toBe(`${base}/login?callbackUrl=%2Fperfil`);
  }
  // A proxy that rewrote Host says so with X-Forwarded-Host: served, not sent round again.
  const proxied = await request.get(`${other}/login`, { headers: { "x-forwarded-host": new URL(base).host }, maxRedirects: 0 });
  expect(proxied.status()).toBe(200);
});
