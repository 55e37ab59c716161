import { expect, signIn, test } from "./fixtures";

test("the home page shows the product heading and a sign-in link", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Hub Educacional" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Entrar" }).first()).toBeVisible();
});

test("every page names the hub's icon, which a browser may keep for a week", async ({ page, request }) => {
  await page.goto("/login");
  const icon = page.locator('head link[rel="icon"]');
  await expect(icon).toHaveAttribute("type", "image/svg+xml");
  // The page's address for it, and /favicon.ico, where clients that do not read the page look.
  for (const address of [(await icon.getAttribute("href"))!, "/favicon.ico"]) {
    const response = await request.get(address);
    expect(response.status(), address).toBe(200);
    expect(response.headers()["content-type"], address).toBe("image/svg+xml");
    expect(response.headers()["cache-control"], address).toBe("public, max-age=604800");
    expect(await response.text(), address).toContain("<svg");
  }
});

test("an unknown address shows the product's not-found page", async ({ page }) => {
  const response = await page.goto("/pagina-que-nao-existe");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Página não encontrada" })).toBeVisible();
});

test("wrong credentials show a clear message", async ({ page }) => {
  await page.goto("/login");
  await page.getByLabel("E-mail ou CPF").fill("ana.souza@demo.hub.br");
  await page.getByLabel("Senha").fill("senha-errada");
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("E-mail/CPF ou senha incorretos.");
});

test("a person with two profiles picks one after signing in", async ({ page }) => {
  await signIn(page, "ana.souza@demo.hub.br");
  await expect(page.getByRole("heading", { name: "Como você quer entrar?" })).toBeVisible();
  await page.getByRole("button", { name: /Professor\(a\)/ }).click();
  await expect(page.getByRole("heading", { name: "Olá, Ana" })).toBeVisible();
  await expect(page.getByRole("main").getByText("Professor(a) · EMEF Monteiro Lobato")).toBeVisible();
});

test("the gallery prefetches none of its links, and a link still opens its page without a new document", async ({ page }) => {
  // Next prefetches every link that scrolls into view: about eight renders on the hub for a
  // student's gallery before anything was clicked (docs/decisions/047-links-without-prefetch.md).
  const prefetches: string[] = [];
  const documents: string[] = [];
  page.on("request", (request) => {
    if (request.headers()["next-router-prefetch"]) prefetches.push(request.url());
    if (request.resourceType() === "document") documents.push(request.url());
  });
  await signIn(page, "aluno@demo.hub.br");
  await expect(page.getByRole("heading", { name: /^Olá, / })).toBeVisible();
  // Next schedules its prefetches when the browser is idle after the page's scripts ran (they
  // went out about 0.2 s after the load): wait for an idle moment, and half a second more.
  const idleWhile = () => page.evaluate(() => new Promise<void>((resolve) => requestIdleCallback(() => setTimeout(resolve, 500))));
  await page.waitForLoadState("load");
  await idleWhile();
  // Hovering a link prefetches it too, unless prefetching is off.
  await page.getByRole("contentinfo").getByRole("link", { name: "Para desenvolvedores" }).hover();
  await page.getByRole("banner").getByRole("link", { name: "Meus dados" }).hover();
  await idleWhile();
  expect(prefetches).toEqual([]);
  // A click is still a client-side navigation: the page's payload, not a second document.
  const before = documents.length;
  await page.getByRole("banner").getByRole("link", { name: "Meus dados" }).click();
  await expect(page).toHaveURL(/\/meus-dados$/);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  expect(documents.length).toBe(before);
});

test("the Data API reference page lists both endpoints and every query parameter", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("link", { name: "Data API" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Hub — Data API" })).toBeVisible();
  await expect(page.getByRole("heading", { name: /\/manager\/v1\/data\/\{org_id\}/ })).toBeVisible();
  await expect(page.getByRole("heading", { name: /\/manager\/v1\/summary\/\{org_id\}/ })).toBeVisible();
  // Each parameter is a term of the list (a definition list, which reads on a phone: accessibility.spec.ts).
  for (const name of ["min_date", "max_date", "event", "only", "except", "user_id", "code_term", "limit", "cursor"]) {
    await expect(page.getByRole("term").filter({ has: page.getByText(name, { exact: true }) }).first()).toBeVisible();
  }
});

// The sign-in page is sent as the hub rendered it for visitors without a session (a kept page,
// docs/decisions/044): what a person sees must still be what a fresh render shows.
test("the sign-in page kept for visitors: the same page, each error, a signed-in person sent on, Next's router answered", async ({ page, playwright, baseURL }) => {
  const visitor = await playwright.request.newContext({ baseURL });
  const [first, again] = [await visitor.get("/login?callbackUrl=%2Fgestao"), await visitor.get("/login?callbackUrl=%2Fgestao")];
  for (const answer of [first, again]) {
    expect(answer.status()).toBe(200);
    expect(answer.headers()).toMatchObject({ "content-type": "text/html; charset=utf-8", "x-frame-options": "DENY" });
    expect(answer.headers()["set-cookie"]).toBeUndefined();
  }
  expect(await again.text()).toBe(await first.text());
  expect(await first.text()).toContain('name="callbackUrl" value="/gestao"');
  expect(first.headers()["x-request-id"]).not.toBe(again.headers()["x-request-id"]);
  // Each error's message, kept or not.
  for (let i = 0; i < 2; i++) {
    expect(await (await visitor.get("/login?error=TooManyAttempts")).text()).toContain("Muitas tentativas sem sucesso");
    expect(await (await visitor.get("/login?error=CredentialsSignin")).text()).toContain("E-mail/CPF ou senha incorretos.");
  }
  // Next's client router asks the same URL for its payload, never the kept HTML.
  const payload = await visitor.get("/login?callbackUrl=%2Fgestao", { headers: { rsc: "1" } });
  expect(payload.headers()["content-type"]).toContain("text/x-component");
  await visitor.dispose();
  // A signed-in person asking for the page is sent on, as before it was kept.
  await signIn(page, "ana.souza@demo.hub.br");
  await page.goto("/login");
  await expect(page).toHaveURL(/\/perfil/);
});
