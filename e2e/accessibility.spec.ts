// Accessibility flows (issue #19) beyond the axe check every test runs (e2e/fixtures.ts): sign-in
// → profile picker → launch by keyboard alone, and the main pages at a phone's 390 px width
// without sideways scrolling. (Sign-in and the picker without JavaScript: e2e/forms.spec.ts.)
import type { Page } from "@playwright/test";
import { expect, signIn, test } from "./fixtures";

const ANA = "ana.souza@demo.hub.br";

/** Presses Tab until the focused element matches `name` (its accessible text or label), at most 40 times. */
async function tabTo(page: Page, matches: (el: { tag: string; text: string; label: string; id: string }) => boolean, what: string): Promise<void> {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press("Tab");
    const el = await page.evaluate(() => {
      const a = document.activeElement as HTMLElement | null;
      return { tag: a?.tagName ?? "", text: (a?.innerText ?? "").trim(), label: a?.getAttribute("aria-label") ?? "", id: a?.id ?? "" };
    });
    if (matches(el)) return;
  }
  throw new Error(`Tab never reached ${what}`);
}

test("keyboard only: sign in, pick a profile, launch a tool", async ({ page }) => {
  await page.goto("/login");
  await tabTo(page, (el) => el.id === "login", "the login field");
  await page.keyboard.type(ANA);
  await page.keyboard.press("Tab");
  await page.keyboard.type("hub-demo");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("heading", { name: "Como você quer entrar?" })).toBeVisible();
  await tabTo(page, (el) => el.tag === "BUTTON" && el.text.startsWith("Professor(a)"), "the teacher profile");
  await page.keyboard.press("Enter");
  await expect(page.getByRole("list", { name: "Ferramentas disponíveis" })).toBeVisible();
  await tabTo(page, (el) => el.tag === "A" && el.label === "Abrir Ferramenta de Demonstração", "the tool's Abrir link");
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(/\/demo-tool\/launch$/);
  await expect(page.getByRole("heading", { name: "Lançamento LTI recebido" })).toBeVisible();
});

test.describe("at 390 px wide", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  /** Soft: every page of a test is measured, and all that scroll sideways are reported together. */
  async function noSidewaysScroll(page: Page, path: string): Promise<void> {
    await page.goto(path);
    const { scroll, client } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect.soft(scroll, `${path} scrolls sideways (${scroll} px of content in ${client} px)`).toBeLessThanOrEqual(client);
  }

  test("sign-in, picker, gallery, a tool, a class page and the refusal page fit", async ({ page }) => {
    await noSidewaysScroll(page, "/login");
    await noSidewaysScroll(page, "/cracha/recusado?motivo=rede");
    await signIn(page, ANA);
    await noSidewaysScroll(page, "/perfil");
    await page.getByRole("button", { name: /Professor\(a\)/ }).click();
    await noSidewaysScroll(page, "/");
    const classLink = page.getByRole("navigation", { name: "Minhas turmas" }).getByRole("link").first();
    await noSidewaysScroll(page, (await classLink.getAttribute("href"))!);
    await noSidewaysScroll(page, "/meus-dados");
  });

  test("the manager's pages fit", async ({ page }) => {
    await signIn(page, "gestor@demo.hub.br");
    await noSidewaysScroll(page, "/gestao");
    const network = await page.getByRole("list", { name: "Instituições sob sua gestão" }).getByRole("link", { name: "Rede Municipal de Vila Esperança", exact: true }).getAttribute("href");
    for (const section of ["", "/pessoas", "/turmas", "/uso", "/resumo", "/acessos"]) await noSidewaysScroll(page, `${network}${section}`);
  });

  test("the public API reference and the developer's application page (OneRoster card) fit", async ({ page }) => {
    await noSidewaysScroll(page, "/docs/data-api");
    await signIn(page, "dev@edtech.demo");
    await page.goto("/desenvolvedor");
    const application = await page.getByRole("link", { name: "Aplicativo de Demonstração" }).first().getAttribute("href");
    await noSidewaysScroll(page, application!);
    await expect(page.getByRole("heading", { name: "OneRoster 1.2" })).toBeVisible();
  });
});
