// The hot paths answer from the database's present state, whatever they keep in memory (#17,
// docs/decisions/021): a client secret replaced or an application deleted is refused by the very
// next token request, and a placement removed refuses the very next launch, on the served hub
// (server.mjs answers these routes itself, without Next's router). The test makes its own
// application, school, student and placement.
import type { APIRequestContext } from "@playwright/test";
import { addPerson, createUnit, expect, linkEdtechAndPlaceTool, signedIn, signIn, test } from "./fixtures";

const DEVELOPER = "dev@edtech.demo";
const MANAGER = "gestor@demo.hub.br";

/** A token request with a code that does not exist: a known client gets invalid_grant, any other invalid_client. */
async function tokenAnswer(request: APIRequestContext, clientId: string, clientSecret: string): Promise<{ status: number; error: string }> {
  const res = await request.post("/lti/v1/oauth2/authorize", {
    form: { grant_type: "authorization_code", code: "no-such-code-0123456789", client_id: clientId, client_secret: clientSecret },
  });
  return { status: res.status(), error: ((await res.json()) as { error: string }).error };
}

test("a replaced client secret and a deleted application are refused by the next token request", async ({ page }) => {
  const name = `Sem Cache ${Date.now() % 1_000_000}`;
  await signedIn(page, DEVELOPER);
  await page.goto("/desenvolvedor/aplicacoes/nova");
  await page.getByLabel("Nome", { exact: true }).fill(name);
  await page.getByLabel(/Endereços de retorno/).fill("https://sem-cache.example/callback");
  await page.getByRole("button", { name: "Criar aplicação" }).click();
  await expect(page.getByRole("heading", { name: "Aplicação criada" })).toBeVisible();
  const clientId = (await page.getByTestId("client-id").textContent())!.trim();
  const first = await page.getByLabel("client_secret").inputValue();
  await page.getByRole("link", { name: /Ver a aplicação/ }).click();
  await expect(page.getByRole("heading", { level: 1, name })).toBeVisible();

  // Authenticated (its code is refused, not the client), twice: the second may come from memory.
  for (let i = 0; i < 2; i++) expect(await tokenAnswer(page.request, clientId, first)).toEqual({ status: 400, error: "invalid_grant" });

  const rotate = page.getByRole("form", { name: "Trocar client_secret" });
  await rotate.getByRole("button", { name: "Gerar novo client_secret" }).click();
  await rotate.getByRole("button", { name: "Gerar novo segredo" }).click();
  const second = await rotate.getByLabel("Novo client_secret").inputValue();
  expect(second).not.toBe(first);
  expect(await tokenAnswer(page.request, clientId, first)).toEqual({ status: 401, error: "invalid_client" });
  expect(await tokenAnswer(page.request, clientId, second)).toEqual({ status: 400, error: "invalid_grant" });

  const remove = page.getByRole("form", { name: "Excluir aplicação" });
  await remove.getByLabel(`Digite "${name}" para confirmar`).fill(name);
  await remove.getByRole("button", { name: "Excluir aplicação" }).click();
  await expect(page).toHaveURL(/\/desenvolvedor\?excluida=1/);
  expect(await tokenAnswer(page.request, clientId, second)).toEqual({ status: 401, error: "invalid_client" });
});

test("a placement removed by the school refuses the next launch", async ({ page, browser }) => {
  const tag = `${Date.now() % 1_000_000}`;
  const school = `EMEF Sem Cache ${tag}`;
  const student = { name: `Lia Sem Cache ${tag}`, email: `lia.semcache.${tag}@demo.hub.br`, role: "aluno" as const, password: "senha-sem-cache-123" };
  await signedIn(page, MANAGER);
  const networkId = await createUnit(page, `Rede Sem Cache ${tag}`, "network", "Rede Municipal de Vila Esperança");
  const schoolId = await createUnit(page, school, "school", `— Rede Sem Cache ${tag}`);
  await linkEdtechAndPlaceTool(page, { networkId, schoolId, edtech: "Aprende Mais", tool: "Laboratório de Frações" });
  await addPerson(page, schoolId, student);

  const context = await browser.newContext();
  const own = await context.newPage();
  await signIn(own, student.email, student.password);
  const href = (await own.getByRole("link", { name: "Abrir Laboratório de Frações" }).getAttribute("href"))!;
  for (let i = 0; i < 2; i++) {
    const launch = await own.request.get(href);
    expect(launch.status()).toBe(200);
    expect(await launch.text()).toContain('name="oauth_signature"');
  }

  await page.goto(`/gestao/${schoolId}/ferramentas`);
  await page.getByRole("button", { name: "Remover Laboratório de Frações" }).click();
  await page.getByRole("button", { name: "Confirmar: remover" }).click();
  // The placement's line (title, then "tool · edtech") is gone once the removal is saved.
  await expect(page.getByText("Laboratório de Frações · Aprende Mais", { exact: true })).toHaveCount(0);

  const after = await own.request.get(href);
  expect(after.status()).toBe(404);
  expect(await after.text()).not.toContain("oauth_signature");
  await context.close();
});
