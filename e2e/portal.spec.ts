// The portal around the launch: gallery search, empty states, detail view, logos; and the
// screenshots linked from the README (docs/screenshots/*.png), taken on the way.
import type { Page } from "@playwright/test";
import { expect, shot, signIn, test } from "./fixtures";

/** Changes profile with the header switcher: choosing in the list submits its form. */
async function switchProfile(page: Page, label: string): Promise<void> {
  await page.getByLabel("Trocar perfil").selectOption({ label });
  await expect(page.getByRole("main").getByText(label)).toBeVisible();
}

test.use({ viewport: { width: 1280, height: 800 } });

test("sign-in, picker, gallery and detail views (with screenshots)", async ({ page }) => {
  await page.goto("/login");
  await expect(page.getByRole("heading", { name: "Entrar no Hub" })).toBeVisible();
  await shot(page, "sign-in");

  await signIn(page, "ana.souza@demo.hub.br");
  await expect(page.getByRole("heading", { name: "Como você quer entrar?" })).toBeVisible();
  await shot(page, "profile-picker");

  await page.getByRole("button", { name: /Professor\(a\)/ }).click();
  const gallery = page.getByRole("list", { name: "Ferramentas disponíveis" });
  await expect(gallery.getByRole("listitem")).toHaveCount(2);
  // Cards in title order, each with its logo loaded from /assets.
  await expect(gallery.getByRole("heading", { level: 3 })).toHaveText(["Ferramenta de Demonstração", "Laboratório de Frações"]);
  for (const img of await gallery.locator("img").all()) {
    await expect(img).toHaveJSProperty("complete", true);
    expect(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
  }
  await shot(page, "gallery");

  await gallery.getByRole("link", { name: "Detalhes de Laboratório de Frações" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Laboratório de Frações" })).toBeVisible();
  await expect(page.getByText("Sequências didáticas prontas")).toBeVisible();
  const site = page.getByRole("link", { name: /Site da ferramenta/ });
  await expect(site).toHaveAttribute("href", "https://aprendemais.example");
  await expect(site).toHaveAttribute("rel", "noopener noreferrer");
  await expect(page.getByRole("link", { name: "Abrir", exact: true })).toHaveAttribute("href", /^\/launch\/[0-9a-f-]{36}$/);
  await shot(page, "tool-detail");
});

test("search ignores case and accents; no match shows a friendly empty state", async ({ page }) => {
  await signIn(page, "ana.souza@demo.hub.br");
  await page.getByRole("button", { name: /Professor\(a\)/ }).click();
  const search = page.getByRole("searchbox", { name: "Buscar ferramentas" });
  const gallery = page.getByRole("list", { name: "Ferramentas disponíveis" });

  await search.fill("FRACOES");
  await search.press("Enter");
  await expect(page).toHaveURL(/\?q=FRACOES$/);
  await expect(gallery.getByRole("heading", { level: 3 })).toHaveText(["Laboratório de Frações"]);

  await search.fill("astronomia");
  await search.press("Enter");
  await expect(page.getByRole("status")).toContainText("Nenhuma ferramenta encontrada para “astronomia”");
  await page.getByRole("link", { name: "Ver todas as ferramentas" }).click();
  await expect(gallery.getByRole("listitem")).toHaveCount(2);
});

test("a tool detail outside the profile's placements is not found", async ({ page }) => {
  await signIn(page, "ana.souza@demo.hub.br");
  await page.getByRole("button", { name: /Professor\(a\)/ }).click();
  const detail = await page.getByRole("link", { name: "Detalhes de Laboratório de Frações" }).getAttribute("href");
  await switchProfile(page, "Responsável · EMEF Cecília Meireles");
  const response = await page.goto(detail!);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Página não encontrada" })).toBeVisible();
});

test("logos are served with their type, immutable caching and a restrictive CSP", async ({ page }) => {
  await signIn(page, "aluno@demo.hub.br");
  const src = await page.getByRole("list", { name: "Ferramentas disponíveis" }).locator("img").first().getAttribute("src");
  expect(src).toMatch(/^\/assets\/[0-9a-f-]{36}$/);
  const response = await page.request.get(src!);
  expect(response.headers()["content-type"]).toBe("image/svg+xml");
  expect(response.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(response.headers()["content-security-policy"]).toContain("default-src 'none'; style-src 'unsafe-inline'");
  expect(response.headers()["x-content-type-options"]).toBe("nosniff");
  // Portal pages keep the global header (next.config.mjs); only these routes set their own.
  expect((await page.request.get("/")).headers()["content-security-policy"]).toBe("frame-ancestors 'none'");
});

test("the reference tool shows the launch; Back from the tool returns to the gallery", async ({ page }) => {
  await signIn(page, "ana.souza@demo.hub.br");
  await page.getByRole("button", { name: /Professor\(a\)/ }).click();
  await page.getByRole("link", { name: "Abrir Ferramenta de Demonstração" }).click();
  await expect(page.getByRole("heading", { name: "Lançamento LTI recebido" })).toBeVisible();
  // School 1 shares the name and an anonymized e-mail with the demo tool.
  await expect(page.getByText("Ana Souza", { exact: true }).last()).toBeVisible();
  await expect(page.getByText(/^u[0-9a-f]{16}@anonimo\.invalid$/).first()).toBeVisible();
  await expect(page.getByText("ana.souza@demo.hub.br")).toHaveCount(0);
  await shot(page, "demo-tool-launch");

  // Back returns to the gallery instead of bouncing into the tool with a fresh launch: Chromium
  // usually replaces the launch page's history entry, and when it does not, the page goes on.
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole("list", { name: "Ferramentas disponíveis" })).toBeVisible();
});

test("without JavaScript, the launch page's <noscript> button posts the launch", async ({ page, browser }) => {
  await signIn(page, "aluno@demo.hub.br");
  const href = await page.getByRole("link", { name: "Abrir Ferramenta de Demonstração" }).getAttribute("href");
  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  const tab = await noScript.newPage();
  await tab.goto(href!);
  await expect(tab.getByRole("heading", { name: "Abrindo Ferramenta de Demonstração…" })).toBeVisible();
  await tab.getByRole("button", { name: "Continuar para Ferramenta de Demonstração" }).click();
  await expect(tab.getByRole("heading", { name: "Lançamento LTI recebido" })).toBeVisible();
  await expect(tab.locator("#lti-roles")).toHaveText("Learner");
  await noScript.close();
});
