import { expect, signIn, test } from "./fixtures";

test("the home page shows the product heading and a sign-in link", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Hub Educacional" })).toBeVisible();
  await expect(page.getByRole("link", { name: "Entrar" }).first()).toBeVisible();
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
