import { expect, test as base, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "hub-demo";

/** Signs in through the real form, as a person would. */
export async function signIn(page: Page, login: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto("/login");
  await fillSignIn(page, login, password);
  await expect(page).not.toHaveURL(/\/login/);
}

/** Fills and submits the sign-in form on the page already shown. */
export async function fillSignIn(page: Page, login: string, password = DEMO_PASSWORD): Promise<void> {
  await page.getByLabel("E-mail ou CPF").fill(login);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
}

/**
 * A school's slow network: every script of the page and next-auth's session endpoint arrive
 * `ms` late, so whatever the person does first happens before the page has hydrated.
 */
export async function slowScripts(page: Page, ms = 3_000): Promise<void> {
  await page.route(/\/_next\/static\/.*\.js(\?|$)|\/api\/auth\/session/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.fallback();
  });
}

/** Now in the hub's time zone, in the Data API's date format. */
export function hubNow(): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", { timeZone: "America/Sao_Paulo", year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23" })
      .formatToParts(new Date())
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}/${parts.month}/${parts.day}+${parts.hour}:${parts.minute}:${parts.second}`;
}

export const test = base;
export { expect };
