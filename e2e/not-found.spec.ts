// A page that calls notFound() answers with the not-found page drawn on the server: status 404, the
// root layout's <html lang="pt-BR"> and "Página não encontrada" in the HTML as served, before any
// script runs (server.mjs and lib/server/http/not-found-document.mjs, decision 036). Next alone
// answers these with an empty error document that only the browser's scripts fill in. Read here
// as plain HTTP (no JavaScript at all) for the developer area, the manager area and the portal,
// then in Chromium with scripts off and on.
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { expect, signInByForm, test } from "./fixtures";

const DEVELOPER = "dev@edtech.demo";
const MANAGER = "gestor@demo.hub.br";
const STUDENT = "aluno@demo.hub.br";
/** An id no row has. */
const UNKNOWN_ID = "00000000-0000-4000-8000-000000000000";

/** The response is the not-found page, whole, as the server sent it. */
async function expectServerRenderedNotFound(response: APIResponse, path: string): Promise<void> {
  expect(response.status(), path).toBe(404);
  expect(response.headers()["content-type"], path).toContain("text/html");
  const html = await response.text();
  expect(html, path).toMatch(/^<!DOCTYPE html><html lang="pt-BR"[ >]/);
  expect(html, path).not.toContain('id="__next_error__"');
  expect(html, path).toMatch(/<h1[^>]*>Página não encontrada<\/h1>/);
  // The root layout around it: the site's header and footer, not an empty body.
  expect(html, path).toMatch(/<header[\s>]/);
  expect(html, path).toMatch(/<footer[\s>]/);
  expect(html, path).toContain('<meta name="robots" content="noindex"/>');
}

/** EMEF Monteiro Lobato's id and the id of Laboratório de Frações (Aprende Mais's tool), as the demo's manager sees them. */
async function demoIds(manager: APIRequestContext): Promise<{ schoolId: string; fracoesId: string }> {
  const schoolId = /href="\/gestao\/([0-9a-f-]{36})"[^>]*>EMEF Monteiro Lobato</.exec(await (await manager.get("/gestao")).text())?.[1];
  expect(schoolId).toBeDefined();
  const tools = await (await manager.get(`/gestao/${schoolId}/ferramentas`)).text();
  const fracoesId = /<option value="([0-9a-f-]{36})"[^>]*>Laboratório de Frações — Aprende Mais</.exec(tools)?.[1];
  expect(fracoesId).toBeDefined();
  return { schoolId: schoolId!, fracoesId: fracoesId! };
}

test("every kind of page that calls notFound() serves the not-found page in its HTML, with status 404", async ({ playwright, baseURL }) => {
  const signedIn = async (login: string) => {
    const request = await playwright.request.newContext({ baseURL });
    await signInByForm(request, baseURL!, login);
    return request;
  };
  const [developer, manager, student] = await Promise.all([signedIn(DEVELOPER), signedIn(MANAGER), signedIn(STUDENT)]);
  try {
    const { schoolId, fracoesId } = await demoIds(manager);
    const cases: [APIRequestContext, string][] = [
      // Another edtech's tool is not found, exactly like an unknown id.
      [developer, `/desenvolvedor/ferramentas/${fracoesId}`],
      [developer, `/desenvolvedor/ferramentas/${UNKNOWN_ID}`],
      [developer, `/desenvolvedor/ferramentas/${fracoesId}/testar`],
      [developer, `/desenvolvedor/aplicacoes/${UNKNOWN_ID}`],
      // The institution's layout (requireManagerPage) and a page's own lookup (notFoundOnMissing).
      [manager, `/gestao/${UNKNOWN_ID}`],
      [manager, `/gestao/${schoolId}/turmas/${UNKNOWN_ID}`],
      [manager, `/gestao/${schoolId}/pessoas/${UNKNOWN_ID}`],
      // The portal: a tool outside the student's placements, a class that is not theirs.
      [student, `/ferramentas/${fracoesId}`],
      [student, `/turmas/${UNKNOWN_ID}`],
      // A student is not a manager: the whole area does not exist for them.
      [student, `/gestao/${schoolId}`],
    ];
    for (const [request, path] of cases) await expectServerRenderedNotFound(await request.get(path), path);

    // What was already right stays so: an unmatched address, a page that is found.
    await expectServerRenderedNotFound(await student.get("/nao-existe"), "/nao-existe");
    const found = await developer.get("/desenvolvedor");
    expect(found.status()).toBe(200);
    expect(await found.text()).not.toMatch(/<h1[^>]*>Página não encontrada<\/h1>/);
  } finally {
    await Promise.all([developer, manager, student].map((request) => request.dispose()));
  }
});

test("in Chromium, the not-found page is there before the scripts run and stays after they do", async ({ browser, page, baseURL }) => {
  await signInByForm(page.request, baseURL!, DEVELOPER);
  const path = `/desenvolvedor/ferramentas/${UNKNOWN_ID}`;

  const noScript = await browser.newContext({ javaScriptEnabled: false, storageState: await page.context().storageState() });
  try {
    const tab = await noScript.newPage();
    const response = await tab.goto(path);
    expect(response?.status()).toBe(404);
    await expect(tab.locator("html")).toHaveAttribute("lang", "pt-BR");
    await expect(tab.getByRole("heading", { level: 1, name: "Página não encontrada" })).toBeVisible();
    await expect(tab.getByRole("link", { name: "Voltar ao início" })).toBeVisible();
  } finally {
    await noScript.close();
  }

  // With scripts, the page hydrates as served: same address, same content, no error.
  const errors: Error[] = [];
  page.on("pageerror", (error) => errors.push(error));
  const response = await page.goto(path);
  expect(response?.status()).toBe(404);
  await page.waitForLoadState("load"); // the page's scripts have run
  await expect(page).toHaveURL(path);
  await expect(page.locator("html")).toHaveAttribute("lang", "pt-BR");
  await expect(page.getByRole("heading", { level: 1, name: "Página não encontrada" })).toHaveCount(1);
  await page.getByRole("link", { name: "Voltar ao início" }).click();
  await expect(page).toHaveURL(/\/$/);
  expect(errors).toEqual([]);
});
