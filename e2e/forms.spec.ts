// Sign-in, the profile pickers and the header's profile switch are plain HTML forms that post to
// the hub: they work with scripts off, and a click made before the page's scripts arrive (a
// school's slow network) is kept. Each test signs in on its own and names the profile it wants.
import type { Browser, Page } from "@playwright/test";
import { expect, fillSignIn, signIn, slowScripts, test } from "./fixtures";

const ANA = "ana.souza@demo.hub.br";
const PICKER_HEADING = "Com qual perfil você quer entrar em Aplicativo de Demonstração?";

async function withoutScripts(browser: Browser, run: (page: Page) => Promise<void>): Promise<void> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  try {
    await run(await context.newPage());
  } finally {
    await context.close();
  }
}

/** Signed in, but no profile in the session: home shows the public page, not a gallery. */
async function expectNoProfileChosen(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1, name: "Hub Educacional" })).toBeVisible();
  await expect(page.getByRole("heading", { name: /^Olá, / })).toHaveCount(0);
}

test.describe("without JavaScript", () => {
  test("sign in → pick a profile → gallery; the password never appears in an address", async ({ browser }) => {
    await withoutScripts(browser, async (page) => {
      const addresses: string[] = [];
      page.on("request", (request) => addresses.push(request.url()));
      await page.goto("/login");
      await fillSignIn(page, ANA, "senha-errada");
      await expect(page.getByRole("main").getByRole("alert")).toHaveText("E-mail/CPF ou senha incorretos.");
      await fillSignIn(page, ANA);
      await expect(page.getByRole("heading", { name: "Como você quer entrar?" })).toBeVisible();
      await page.getByRole("button", { name: /Responsável/ }).click();
      await expect(page.getByRole("main").getByText("Responsável · EMEF Cecília Meireles")).toBeVisible();
      await expect(page.getByRole("list", { name: "Ferramentas disponíveis" }).getByRole("listitem").first()).toBeVisible();
      expect(addresses.filter((url) => url.includes("senha") || url.includes("hub-demo") || url.includes("password="))).toEqual([]);
    });
  });

  test("OAuth authorize → sign in → pick a profile → the application receives the code", async ({ browser }) => {
    await withoutScripts(browser, async (page) => {
      const callback = page.waitForRequest((request) => new URL(request.url()).pathname === "/demo-app/callback");
      await page.goto("/demo-app/entrar");
      await fillSignIn(page, ANA);
      await expect(page.getByRole("heading", { name: PICKER_HEADING })).toBeVisible();
      await page.getByRole("button", { name: /Responsável/ }).click();
      const code = new URL((await callback).url()).searchParams.get("code");
      expect(code).toMatch(/^[A-Za-z0-9_-]{22,}$/);
      await expect(page.getByTestId("demo-role")).toHaveText("responsavel");
    });
  });

  test("the header's switch changes profile with its Trocar button", async ({ browser }) => {
    await withoutScripts(browser, async (page) => {
      await signIn(page, ANA);
      await page.getByRole("button", { name: /Professor\(a\)/ }).click();
      await expect(page.getByRole("main").getByText("Professor(a) · EMEF Monteiro Lobato")).toBeVisible();
      await page.getByLabel("Trocar perfil").selectOption({ label: "Responsável · EMEF Cecília Meireles" });
      await page.getByRole("button", { name: "Trocar" }).click();
      await expect(page.getByRole("main").getByText("Responsável · EMEF Cecília Meireles")).toBeVisible();
      await page.getByRole("button", { name: "Sair" }).click();
      await expect(page.getByRole("link", { name: "Entrar" }).first()).toBeVisible();
      expect((await page.context().cookies()).filter((c) => c.name.endsWith("next-auth.session-token") && c.value)).toEqual([]);
    });
  });
});

test.describe("scripts and the session endpoint 3 s late, the profile clicked at once", () => {
  test("the sign-in picker signs in with the profile clicked", async ({ page }) => {
    await slowScripts(page);
    await page.goto("/login");
    await fillSignIn(page, ANA);
    await page.getByRole("button", { name: /Responsável/ }).click();
    await expect(page.getByRole("main").getByText("Responsável · EMEF Cecília Meireles")).toBeVisible();
  });

  test("the authorization screen's picker sends the application the profile clicked", async ({ page }) => {
    await slowScripts(page);
    await page.goto("/demo-app/entrar");
    await fillSignIn(page, ANA);
    await expect(page.getByRole("heading", { name: PICKER_HEADING })).toBeVisible();
    await page.getByRole("button", { name: /Professor\(a\)/ }).click();
    await expect(page.getByTestId("demo-role")).toHaveText("professor");
    await expect(page.getByTestId("demo-institution")).toHaveText("EMEF Monteiro Lobato");
  });

  test("the header's switch sends a choice made before the scripts arrived", async ({ page }) => {
    await signIn(page, ANA);
    await page.getByRole("button", { name: /Professor\(a\)/ }).click();
    await expect(page.getByRole("main").getByText("Professor(a) · EMEF Monteiro Lobato")).toBeVisible();
    await slowScripts(page);
    await page.reload();
    await page.getByLabel("Trocar perfil").selectOption({ label: "Responsável · EMEF Cecília Meireles" });
    await expect(page.getByRole("main").getByText("Responsável · EMEF Cecília Meireles")).toBeVisible();
  });
});

test.describe("refusals", () => {
  test("a profile that is not the person's is refused with a message, and the session keeps none", async ({ page }) => {
    await signIn(page, ANA);
    const button = page.getByRole("button", { name: /Professor\(a\)/ });
    await button.evaluate((el) => el.setAttribute("value", "00000000-0000-4000-8000-000000000000"));
    await button.click();
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Não foi possível entrar com este perfil. Escolha um dos perfis abaixo.");
    await expectNoProfileChosen(page);
  });

  test("a form post from another origin, or not form-encoded, changes nothing", async ({ page, baseURL }) => {
    await signIn(page, ANA);
    const profileId = await page.getByRole("button", { name: /Professor\(a\)/ }).getAttribute("value");
    const crossSite = await page.request.post("/perfil/escolher", { form: { profileId: profileId!, callbackUrl: "/" }, headers: { origin: "https://evil.example" }, maxRedirects: 0 });
    expect(crossSite.status()).toBe(403);
    const noOrigin = await page.request.post("/sair", { form: {}, maxRedirects: 0 });
    expect(noOrigin.status()).toBe(403);
    const json = await page.request.post("/entrar", { data: { login: ANA, password: "hub-demo" }, headers: { origin: baseURL! }, maxRedirects: 0 });
    expect(json.status()).toBe(415);
    await expectNoProfileChosen(page);
  });

  test("after sign-in, a callbackUrl that would leave the hub stays on it", async ({ page, baseURL }) => {
    for (const target of ["/\t/evil.example", "//evil.example", "/\\evil.example", "https://evil.example/"]) {
      await page.context().clearCookies();
      await page.goto(`/login?callbackUrl=${encodeURIComponent(target)}`);
      await fillSignIn(page, "aluno@demo.hub.br");
      await expect(page.getByRole("heading", { name: /^Olá, / })).toBeVisible();
      expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
    }
  });
});
