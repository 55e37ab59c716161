// Issue 3 acceptance: sign in, pick a profile, open the demo tool from the gallery, switch
// profile and launch again; a replayed launch is refused; a student sees only student tools.
import type { Page } from "@playwright/test";
import { captureLaunchForm, expect, signIn, test } from "./fixtures";

const DEMO_TOOL = "Ferramenta de Demonstração";
const FRACOES = "Laboratório de Frações";

async function sessionProfileId(page: Page): Promise<string> {
  const session = (await (await page.request.get("/api/auth/session")).json()) as { profileId?: string };
  expect(session.profileId).toMatch(/^[0-9a-f-]{36}$/);
  return session.profileId!;
}

/**
 * Changes profile with the header switcher. Retried: a change made before the page has hydrated
 * is reset by React, as it would be for a person clicking that early.
 */
async function switchProfile(page: Page, label: string): Promise<void> {
  await expect(async () => {
    await page.getByLabel("Trocar perfil").selectOption({ label });
    await expect(page.getByRole("main").getByText(label)).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 20_000 });
}

/**
 * The launch's user_id: the tool's own (pairwise) id of the profile, a UUID that is not the hub's
 * profile id (docs/decisions/014-pairwise-identifiers.md).
 */
async function toolUserId(page: Page, profileId: string): Promise<string> {
  const id = (await page.locator("#lti-user-id").innerText()).trim();
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  expect(id).not.toBe(profileId);
  return id;
}

function gallery(page: Page) {
  return page.getByRole("list", { name: "Ferramentas disponíveis" });
}

test("Ana opens the demo tool as teacher (Instructor), then as guardian (Mentor)", async ({ page }) => {
  await signIn(page, "ana.souza@demo.hub.br");
  await expect(page.getByRole("heading", { name: "Como você quer entrar?" })).toBeVisible();
  await page.getByRole("button", { name: /Professor\(a\)/ }).click();
  await expect(page.getByRole("main").getByText("Professor(a) · EMEF Monteiro Lobato")).toBeVisible();
  const teacherId = await sessionProfileId(page);

  await expect(gallery(page).getByRole("heading", { name: DEMO_TOOL })).toBeVisible();
  await expect(gallery(page).getByRole("heading", { name: FRACOES })).toBeVisible();
  await gallery(page).getByRole("link", { name: DEMO_TOOL, exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: DEMO_TOOL })).toBeVisible();
  await page.getByRole("link", { name: "Abrir", exact: true }).click();

  await expect(page).toHaveURL(/\/demo-tool\/launch$/);
  await expect(page.getByRole("heading", { name: "Lançamento LTI recebido" })).toBeVisible();
  const teacherToolId = await toolUserId(page, teacherId);
  await expect(page.locator("#lti-roles")).toHaveText("Instructor");

  await page.getByRole("link", { name: "Voltar ao Hub" }).click();
  await switchProfile(page, "Responsável · EMEF Cecília Meireles");
  const guardianId = await sessionProfileId(page);
  expect(guardianId).not.toBe(teacherId);
  await expect(gallery(page).getByRole("heading", { name: FRACOES })).toHaveCount(0);
  await gallery(page).getByRole("link", { name: `Abrir ${DEMO_TOOL}` }).click();

  await expect(page.getByRole("heading", { name: "Lançamento LTI recebido" })).toBeVisible();
  expect(await toolUserId(page, guardianId)).not.toBe(teacherToolId);
  await expect(page.locator("#lti-roles")).toHaveText("Mentor");
});

test("re-posting the same captured launch form is refused with 401", async ({ page }) => {
  await signIn(page, "ana.souza@demo.hub.br");
  await page.getByRole("button", { name: /Professor\(a\)/ }).click();
  const href = await gallery(page).getByRole("link", { name: `Abrir ${DEMO_TOOL}` }).getAttribute("href");
  expect(href).toMatch(/^\/launch\/[0-9a-f-]{36}$/);

  const form = await captureLaunchForm(page.request, href!);
  const body = new URLSearchParams(form.fields).toString();
  const post = () => page.request.post(form.action, { headers: { "content-type": "application/x-www-form-urlencoded" }, data: body });
  const first = await post();
  expect(first.status()).toBe(200);
  expect(await first.text()).toContain("Lançamento LTI recebido");
  const replay = await post();
  expect(replay.status()).toBe(401);
  const refused = await replay.text();
  expect(refused).toContain("nonceUnused");
  expect(refused).not.toContain("lti-user-id");
});

test("the launch page posts only to the tool, is never cached, and needs the right profile", async ({ page, browser, baseURL }) => {
  await signIn(page, "ana.souza@demo.hub.br");
  await page.getByRole("button", { name: /Professor\(a\)/ }).click();
  const fracoes = await gallery(page).getByRole("link", { name: `Abrir ${FRACOES}` }).getAttribute("href");
  const demo = await gallery(page).getByRole("link", { name: `Abrir ${DEMO_TOOL}` }).getAttribute("href");

  const launch = await page.request.get(demo!);
  expect(launch.headers()["cache-control"]).toBe("no-store");
  const csp = launch.headers()["content-security-policy"] ?? "";
  // The demo tool is served by the hub itself, so its origin is the hub's.
  expect(csp).toContain(`form-action 'self' ${baseURL}`);
  expect(csp).toContain("frame-ancestors 'none'");

  // As guardian (another school), neither placement of school 1 yields a signed form.
  await switchProfile(page, "Responsável · EMEF Cecília Meireles");
  for (const href of [fracoes!, demo!]) {
    const refused = await page.request.get(href);
    expect(refused.status()).toBe(404);
    expect(await refused.text()).not.toContain("oauth_signature");
  }

  // Signed out: to sign-in, and back to the launch afterwards.
  const anonymous = await browser.newContext();
  const response = await anonymous.request.get(demo!, { maxRedirects: 0 });
  expect(response.status()).toBe(303);
  expect(response.headers().location).toBe(`${baseURL}/login?callbackUrl=${encodeURIComponent(demo!)}`);
  await anonymous.close();
});

test("a student sees only the tools placed for students", async ({ page }) => {
  await signIn(page, "aluno@demo.hub.br");
  await expect(page.getByRole("main").getByText("Aluno(a) · EMEF Monteiro Lobato")).toBeVisible();
  await expect(gallery(page).getByRole("heading", { name: DEMO_TOOL })).toBeVisible();
  await expect(gallery(page).getByRole("heading", { name: FRACOES })).toHaveCount(0);
  await expect(gallery(page).getByRole("listitem")).toHaveCount(1);

  await gallery(page).getByRole("link", { name: `Abrir ${DEMO_TOOL}` }).click();
  await expect(page.getByRole("heading", { name: "Lançamento LTI recebido" })).toBeVisible();
  await toolUserId(page, await sessionProfileId(page));
  await expect(page.locator("#lti-roles")).toHaveText("Learner");
});
