import { expect, test as base, type Page } from "@playwright/test";

export const DEMO_PASSWORD = "hub-demo";

/** Signs in through the real form, as a person would. */
export async function signIn(page: Page, login: string, password = DEMO_PASSWORD): Promise<void> {
  await page.goto("/login");
  await page.getByLabel("E-mail ou CPF").fill(login);
  await page.getByLabel("Senha").fill(password);
  await page.getByRole("button", { name: "Entrar" }).click();
  await expect(page).not.toHaveURL(/\/login/);
}

export const test = base;
export { expect };
