// OAuth 2 sign-in in Chromium, as a person meets it: the demo partner application sends a
// signed-out person to the hub, who signs in, picks a profile and comes back signed in to the
// application, which shows the user info it read from the hub.
import { expect, fillSignIn, signIn, slowScripts, test } from "./fixtures";
import type { Page } from "@playwright/test";

const ANA = "ana.souza@demo.hub.br";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function signInOnLoginPage(page: Page): Promise<void> {
  await expect(page).toHaveURL(/\/login\?callbackUrl=/);
  await fillSignIn(page, ANA);
}

async function demoResult(page: Page) {
  await expect(page.getByRole("heading", { name: "Você entrou com o Hub" })).toBeVisible();
  const userId = (await page.getByTestId("demo-user-id").innerText()).trim();
  const info = JSON.parse(await page.getByTestId("demo-user-info").innerText()) as {
    user_id: string;
    perfil: string;
    instituicao: { nome: string };
    usuario: Record<string, string | null>;
  };
  expect(userId).toMatch(UUID);
  expect(info.user_id).toBe(userId);
  return { userId, info };
}

test.describe("OAuth 2 sign-in from the demo partner application", () => {
  test("a signed-out person opens /demo-app, signs in, picks the teacher profile and sees her user info", async ({ page }) => {
    await page.goto("/demo-app");
    await page.getByRole("link", { name: "Entrar com o Hub" }).click();
    await signInOnLoginPage(page);
    // Sign-in hands over to the authorization screen's own picker, which names the application.
    await expect(page.getByRole("heading", { name: "Com qual perfil você quer entrar em Aplicativo de Demonstração?" })).toBeVisible();
    await page.getByRole("button", { name: /Professor\(a\)/ }).click();

    await expect(page).toHaveURL(/\/demo-app$/);
    const { info } = await demoResult(page);
    await expect(page.getByTestId("demo-role")).toHaveText("professor");
    await expect(page.getByTestId("demo-institution")).toHaveText("EMEF Monteiro Lobato");
    // School 1 shares name, birth date and e-mail with the demo app, the e-mail anonymized.
    expect(Object.keys(info.usuario)).toEqual(["nome_usuario", "idade", "email_usuario"]);
    expect(info.usuario.nome_usuario).toBe("Ana Souza");
    expect(info.usuario.email_usuario).toMatch(/@anonimo\.invalid$/);
  });

  test("a second run with the other profile shows the other profile id", async ({ page }) => {
    await page.goto("/demo-app");
    await page.getByRole("link", { name: "Entrar com o Hub" }).click();
    await signInOnLoginPage(page);
    await page.getByRole("button", { name: /Responsável/ }).click();

    const { info } = await demoResult(page);
    await expect(page.getByTestId("demo-role")).toHaveText("responsavel");
    await expect(page.getByTestId("demo-institution")).toHaveText("EMEF Cecília Meireles");
    expect(Object.keys(info.usuario)).toEqual(["nome_usuario"]);
  });

  test("signed in at the hub: the home page card starts the flow for the current profile; switching uses the picker", async ({ page }) => {
    await signIn(page, ANA);
    await page.getByRole("button", { name: /Professor\(a\)/ }).click();
    await expect(page.getByRole("heading", { name: "Olá, Ana" })).toBeVisible();
    await page.getByRole("link", { name: "Abrir Aplicativo de Demonstração" }).click();

    // No picker: the hub started the flow for the profile in use.
    const teacher = await demoResult(page);
    await expect(page.getByTestId("demo-role")).toHaveText("professor");

    // Asking the application for another profile shows the authorization screen's picker. A slow
    // network must not matter: the profile is clicked before the page's scripts have arrived.
    await slowScripts(page);
    await page.getByRole("link", { name: "Entrar com outro perfil" }).click();
    await expect(page.getByRole("heading", { name: "Com qual perfil você quer entrar em Aplicativo de Demonstração?" })).toBeVisible();
    await page.getByRole("button", { name: /Responsável/ }).click();
    const guardian = await demoResult(page);
    await expect(page.getByTestId("demo-role")).toHaveText("responsavel");
    expect(guardian.userId).not.toBe(teacher.userId);
  });

  test("cancelling on the picker returns to the application with access_denied", async ({ page }) => {
    await signIn(page, ANA);
    await page.getByRole("button", { name: /Professor\(a\)/ }).click();
    await expect(page.getByRole("heading", { name: "Olá, Ana" })).toBeVisible();
    await page.goto("/demo-app/entrar");
    await page.getByRole("link", { name: /Cancelar e voltar/ }).click();
    await expect(page.getByRole("main").getByRole("alert")).toContainText("O Hub recusou o pedido de entrada. (access_denied)");
  });

  test("an unknown client gets an error page on the hub, never a redirect", async ({ page }) => {
    const response = await page.goto("/lti/v1/oauth2/authorize?client_id=nobody&redirect_uri=https%3A%2F%2Fevil.example%2F&response_type=code&scope=user.info&state=x");
    expect(response?.status()).toBe(400);
    expect(new URL(page.url()).pathname).toBe("/lti/v1/oauth2/authorize");
    await expect(page.getByRole("heading", { name: "Aplicativo não reconhecido" })).toBeVisible();
    const headers = response!.headers();
    expect(headers["cache-control"]).toBe("no-store");
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(headers["access-control-allow-origin"]).toBeUndefined();
  });
});
